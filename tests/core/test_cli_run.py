"""``gent run`` and ``gent describe`` on config files (the built-in ``scripted`` model)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gent_core._cli.main import main

CONFIG = """\
model:
  name: scripted
  outputs:
    - >-
      <thinking>Multiply.</thinking><action>{{"tool": "calculator",
      "args": {{"expression": "17*23"}}}}</action>
    - '<thinking>Got it.</thinking><answer>{answer}</answer>'
format: xml
toolchain: json
tools: [calculator]
max_steps: {max_steps}
"""


def write_config(tmp_path: Path, answer: str = "391", max_steps: int = 4) -> Path:
    path = tmp_path / "agent.yaml"
    path.write_text(CONFIG.format(answer=answer, max_steps=max_steps))
    return path


def test_run_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["run", str(write_config(tmp_path)), "What is 17 * 23?", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 0
    assert result["answer"] == "391"
    assert result["stop_reason"] == "answer"
    first = result["steps"][0]
    assert first["output"].endswith("</action>")
    assert first["calls"][0]["tool"] == "calculator"
    assert first["calls"][0]["args"] == {"expression": "17*23"}
    assert first["calls"][0]["output"] == 391
    assert result["stats"]["steps"] == 2
    assert result["stats"]["tool_calls"] == {"calculator": 1}


def test_run_live_view(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["run", str(write_config(tmp_path)), "What is 17 * 23?"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Task: What is 17 * 23?" in out
    assert "[thinking] Multiply." in out
    assert '-> calculator {"expression": "17*23"}' in out
    assert "<- calculator: 391" in out
    assert "Answer: 391" in out
    assert "answer: the model answered | steps 2" in out
    assert "\x1b[" not in out  # not a terminal: no colours


def test_run_that_hits_a_limit_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["run", str(write_config(tmp_path, max_steps=1)), "q", "--json"])
    assert code == 1
    assert json.loads(capsys.readouterr().out)["stop_reason"] == "max_steps"


def test_bad_config_exits_2_naming_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "agent.yaml"
    path.write_text("model: scripted\nformat: xml\nmax_steps: many\n")
    assert main(["run", str(path), "q"]) == 2
    err = capsys.readouterr().err
    assert "agent.yaml, line 3, key 'max_steps'" in err


def test_unknown_plugin_in_config_lists_installed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "agent.yaml"
    path.write_text("model: scripted\nformat: xmll\n")
    assert main(["run", str(path), "q"]) == 2
    err = capsys.readouterr().err
    assert "line 2, key 'format': no format named 'xmll'" in err
    assert "did you mean 'xml'?" in err


def test_task_and_resume_are_exclusive(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = str(write_config(tmp_path))
    assert main(["run", config]) == 2
    assert main(["run", config, "task", "--resume", "x.jsonl"]) == 2
    assert "give a TASK, or --resume TRANSCRIPT" in capsys.readouterr().err


def test_transcript_option_writes_jsonl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    transcript = tmp_path / "run.jsonl"
    main(["run", str(write_config(tmp_path)), "q", "--json", "--transcript", str(transcript)])
    kinds = [json.loads(line)["type"] for line in transcript.read_text().splitlines()]
    assert kinds == ["run", "step", "step", "end"]
    header = json.loads(transcript.read_text().splitlines()[0])
    assert header["config"]["model"]["name"] == "scripted"


def test_describe_prints_the_system_prompt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["describe", str(write_config(tmp_path))]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# System prompt\n\nYou are a capable assistant")
    assert "calculator(" in out
    assert "# Grammar" not in out  # the scripted model does not constrain generation
