"""``gent eval`` end to end on the bundled local model: a slice of the shipped suite.

This checks the harness (every run ran, was recorded and judged), not a success rate.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gent_core.testing import load_transcript

ROOT = Path(__file__).resolve().parents[3]
SLICE = ["divide-144-by-12", "multiply-37-43", "date-tokyo", "weekday-london"]


def _environment() -> dict[str, str]:
    """A minimal environment (offline, no stray settings), keeping plugin selection."""
    keep = ("PYTHONPATH", "GENT_PLUGINS", "GENT_DISABLE_PLUGINS", "XDG_CACHE_HOME")
    env = {"PATH": str(Path(sys.executable).parent), "HOME": str(Path.home())}
    env.update({name: os.environ[name] for name in keep if name in os.environ})
    return env


@pytest.mark.slow
@pytest.mark.model
@pytest.mark.llama
def test_slice_of_the_shipped_suite_on_the_bundled_model(tmp_path: Path) -> None:
    gent = shutil.which("gent", path=str(Path(sys.executable).parent)) or "gent"
    selection = [arg for task in SLICE for arg in ("--task", task)]
    completed = subprocess.run(
        [
            gent,
            "eval",
            str(ROOT / "evals" / "basic-tools.yaml"),
            *selection,
            "--concurrency",
            "2",
            "--report",
            str(tmp_path / "report.json"),
            "--transcripts",
            str(tmp_path / "runs"),
            "--no-progress",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
        env=_environment(),
    )
    assert completed.returncode == 0, completed.stderr  # every run ran
    # the in-process model serves one request at a time: the runner said so
    assert "serves 1 request(s) at a time" in completed.stderr
    report = json.loads((tmp_path / "report.json").read_text())
    (summary,) = report["summary"]
    assert summary["configuration"] == "<default agent>"
    assert (summary["runs"], summary["errors"]) == (4, 0)
    assert summary["input_tokens"] > 0 and summary["output_tokens"] > 0
    runs = report["runs"]
    assert sorted(run["task"] for run in runs) == sorted(SLICE)
    for run in runs:
        assert run["status"] in ("passed", "failed")
        assert run["steps"] >= 1
        assert len(run["checks"]) == 2
        transcript = load_transcript(run["transcript"])
        assert transcript.header["config"]["model"] == "llamacpp"
        assert len(transcript.steps) == run["steps"]
    listed = (tmp_path / "runs" / "runs.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["task"] for line in listed) == sorted(SLICE)
    assert "gent eval: basic-tools" in completed.stdout
