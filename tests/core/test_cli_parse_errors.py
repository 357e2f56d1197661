"""Every error ``gent parse`` prints carries its ``gent parse: error:`` prefix and is worded for
the person; the text for the model follows only as indented detail (issue 17, item 8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gent_core._cli.main import main


def parse_errors(
    tmp_path: Path, text: str, options: list[str], capsys: pytest.CaptureFixture[str]
) -> list[str]:
    path = tmp_path / "output.txt"
    path.write_text(text)
    assert main(["parse", *options, str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert lines and lines[0].startswith("gent parse: error: ")
    for line in lines[1:]:
        assert line.startswith("  "), f"an unprefixed, unindented line: {line!r}"
    return lines


def test_a_cut_off_natural_call_is_reported_for_the_person(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = parse_errors(
        tmp_path,
        '<action><tool_call name="calculator">{"expression": "1 +</action>',
        ["--format", "xml", "--sections", "action", "--toolchain", "natural"],
        capsys,
    )
    assert lines[0] == (
        "gent parse: error: the tool calls of the action section cannot be read (natural tool "
        "chain): tool call cut off: a <tool_call> was never closed (section 'action')"
    )
    assert lines[1] == "  what an agent would tell the model:"
    assert lines[2].startswith("    Your call was cut off after")
    assert lines[2].endswith("write the complete call again.")


@pytest.mark.parametrize(
    ("text", "options", "first"),
    [
        (
            '<action>{"tool": "calculator", "args": {"expression": </action>',
            ["--toolchain", "json", "--sections", "action"],
            "gent parse: error: the tool calls of the action section cannot be read (json tool "
            "chain): tool call cut off",
        ),
        (
            "just prose",
            ["--sections", "answer"],
            "gent parse: error: cannot parse ",  # then the file, and what was expected
        ),
        (
            "<answer>forty",
            ["--sections", "answer", "--strict"],
            "gent parse: error: the last section (answer) was never closed: the output was cut "
            "off (--strict)",
        ),
    ],
)
def test_other_errors_carry_the_prefix(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    text: str,
    options: list[str],
    first: str,
) -> None:
    lines = parse_errors(tmp_path, text, ["--format", "xml", *options], capsys)
    assert lines[0].startswith(first)
