"""A one-letter credential in an MCP server's ``env`` never rewrites the transcript, and the
run resumes (issue 17), through the real ``gent`` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp_helpers import PYTHON, TOOLBOX, action

from gent_core.testing import run_cli as main


def config(*outputs: str) -> str:
    script = "".join(f"    - '{output}'\n" for output in outputs)
    return (
        f"model:\n  name: scripted\n  outputs:\n{script}"
        f"tools:\n  - mcp: {{name: toolbox, command: [{PYTHON}, {TOOLBOX}], "
        'env: {API_TOKEN: "e"}}\n'
    )


def test_mcp_env_credential_e_leaves_transcript_keys_intact_and_the_run_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # reported: the keys became "typ***" and "ind***x", and --resume failed with
    # "transcript is damag***d"
    first = tmp_path / "first.yaml"
    first.write_text(config(action("echo", '{"text": "every entry here"}')))
    transcript = tmp_path / "run.jsonl"
    task = "Echo every entry here, then answer"
    assert main(["run", str(first), task, "--transcript", str(transcript)]) == 1
    lines = [json.loads(line) for line in transcript.read_text().splitlines()]
    assert [line["type"] for line in lines] == ["run", "step", "end"]  # out of outputs
    step = lines[1]
    assert step["index"] == 1 and step["outcome"] == "action"
    assert step["calls"][0]["output"] == {"result": "every entry here"}
    assert lines[0]["task"] == task
    assert lines[0]["config"]["tools"][0]["mcp"]["env"] == {"API_TOKEN": "***"}
    # drop the end line (a run killed after its first step) and continue the run
    transcript.write_text("\n".join(json.dumps(line) for line in lines[:-1]) + "\n")
    second = tmp_path / "second.yaml"
    second.write_text(config("<answer>Echoed every entry here.</answer>"))
    capsys.readouterr()
    assert main(["run", str(second), "--resume", str(transcript)]) == 0
    out = capsys.readouterr().out
    assert f"Task: {task} (resuming after step 1)\n" in out
    assert "Answer: Echoed every entry here.\n" in out
    assert "***" not in out
    types = [json.loads(line)["type"] for line in transcript.read_text().splitlines()]
    assert types == ["run", "step", "resume", "step", "end"]
