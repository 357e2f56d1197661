"""Everything ``gent`` prints as JSON is strict JSON (issue 11, bug 5: CLI layer)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gent_core._cli.main import main
from tests.strict_json import strict_loads

CONFIG = """\
model:
  name: scripted
  outputs:
    - '<action>{"tool": "calculator", "args": {"expression": "1+1", "x": NaN}}</action>'
    - '<action>{"tool": "calculator", "args": {"expression": "1+1"}}</action>'
    - '<answer>done</answer>'
format: xml
toolchain: json
tools: [calculator]
"""


def test_run_json_with_nan_in_a_call_prints_strict_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "agent.yaml"
    config.write_text(CONFIG)
    code = main(["run", str(config), "q", "--json"])
    result = strict_loads(capsys.readouterr().out)
    assert code == 0
    assert result["steps"][0]["outcome"] == "feedback"
    assert "is NaN, which is not a JSON number" in result["steps"][0]["feedback"]
    assert result["steps"][1]["calls"][0]["output"] == 2


def test_parse_prints_strict_json_for_hostile_sections(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "out.txt"
    path.write_text("<answer>NaN \x1b]0;title\x07 \x9b2J \u202e</answer>", encoding="utf-8")
    assert main(["parse", "--format", "xml", "--sections", "answer", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x9b" not in out and "\u202e" not in out
    assert strict_loads(out) == {"answer": ["NaN \x1b]0;title\x07 \x9b2J \u202e"]}


def test_parse_with_a_toolchain_refuses_nan_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "out.txt"
    path.write_text('<action>{"tool": "t", "args": {"x": Infinity}}</action>')
    code = main(
        ["parse", "--format", "xml", "--sections", "action", "--toolchain", "json", str(path)]
    )
    captured = capsys.readouterr()
    assert code == 1
    assert "args.x is Infinity, which is not a JSON number" in captured.err
    assert captured.out == ""
