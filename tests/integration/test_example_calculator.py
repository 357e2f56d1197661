"""The README's demo: examples/calculator.yaml end to end on the bundled local model."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.model
def test_calculator_example_runs_end_to_end_offline(tmp_path: Path) -> None:
    gent = shutil.which("gent", path=str(Path(sys.executable).parent)) or "gent"
    env = {
        "PATH": str(Path(sys.executable).parent),
        "HOME": str(Path.home()),
        "GENT_HOME": str(tmp_path),  # the run is logged here, not in the user's history
    }
    completed = subprocess.run(
        [gent, "run", "examples/calculator.yaml", "What is 17 * 23?", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    assert result["stop_reason"] == "answer"
    # The run is in the history, with the local model's token counts.
    logged = subprocess.run(
        [gent, "logs", "-n", "1", "--json"], capture_output=True, text=True, env=env, check=True
    )
    (run,) = json.loads(logged.stdout)
    assert (run["task"], run["answer"], run["stop_reason"]) == (
        "What is 17 * 23?",
        result["answer"],
        "answer",
    )
    assert run["steps"] == len(result["steps"])
    assert run["input_tokens"] == result["stats"]["input_tokens"] > 0
    assert run["config_name"] == str(ROOT / "examples" / "calculator.yaml")
    calls = [call for step in result["steps"] for call in step["calls"]]
    assert calls, "the model made no tool call"
    first = calls[0]
    assert first["tool"] == "calculator"
    assert first["status"] == "success"
    value = first["output"]
    # The observation with the tool's result went back to the model...
    assert f"<calculator>\n{value}\n</calculator>" in result["steps"][0]["followup"]
    # ...and the answer is built from it.
    assert str(value) in str(result["answer"])
    assert result["stats"]["tool_calls"] == {"calculator": len(calls)}


@pytest.mark.llama
def test_describe_prints_the_prompt_and_the_grammar(capsys: pytest.CaptureFixture[str]) -> None:
    from gent_core._cli.main import main
    from gent_core._grammar import check_gbnf

    assert main(["describe", str(ROOT / "examples" / "calculator.yaml")]) == 0
    out = capsys.readouterr().out
    prompt, _, rest = out.partition("\n# Grammar (GBNF)\n\n")
    grammar = rest.partition("\n# What constrains each section\n")[0]
    assert prompt.startswith("# System prompt\n\nYou are a capable assistant")
    assert "calculator(expression: string" in prompt
    assert grammar.startswith("root ::=")
    assert '"calculator"' in grammar or "calculator" in grammar
    check_gbnf(grammar)
