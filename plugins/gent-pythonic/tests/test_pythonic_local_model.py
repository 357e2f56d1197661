"""The README's demo with the pythonic chain, end to end on the bundled local model:
``gent run examples/calculator-pythonic.yaml "What is 17 * 23?"`` (Gemma 3 270M, offline).

Whether the 270M model's answer is right is not checked here (answer quality is measured by
``gent eval``); the run must call the calculator in Python syntax, get its result back in the
observation, and answer.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
CONFIG = ROOT / "examples" / "calculator-pythonic.yaml"


@pytest.mark.slow
@pytest.mark.model
@pytest.mark.llama
def test_the_calculator_example_runs_with_pythonic_calls_on_the_local_model() -> None:
    gent = shutil.which("gent", path=str(Path(sys.executable).parent)) or "gent"
    completed = subprocess.run(
        [gent, "run", str(CONFIG), "What is 17 * 23?", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        env={
            "PATH": str(Path(sys.executable).parent),
            "HOME": str(Path.home()),
            "GENT_HOME": os.environ["GENT_HOME"],  # the test session's, not the user's history
        },
    )
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    assert result["stop_reason"] == "answer", result["message"]
    steps = result["steps"]
    calls = [call for step in steps for call in step["calls"]]
    assert calls, "the model made no tool call"
    first = calls[0]
    assert first["tool"] == "calculator" and first["status"] == "success", first
    assert set(first["args"]) == {"expression"}
    action_step = next(step for step in steps if step["calls"])
    # The model wrote a Python call, and the result came back in the observation.
    assert "calculator(expression=" in action_step["output"]
    assert f"<calculator>\n{first['output']}\n</calculator>" in action_step["followup"]
    assert str(result["answer"]).strip(), "the model gave an empty answer"
    assert result["stats"]["tool_calls"] == {"calculator": len(calls)}
