"""``gent parse``: sections and calls as JSON, exit codes 0/1/2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gent_core._cli.main import main

OUTPUT = (
    "Sure.\n<thinking>add them</thinking>\n"
    '<action>{"tool": "calculator", "args": {"expression": "17*23"}}</action>\n'
    "<thinking>second thought</thinking>"
)


@pytest.fixture
def output_file(tmp_path: Path) -> Path:
    path = tmp_path / "output.txt"
    path.write_text(OUTPUT)
    return path


def test_sections_as_json(output_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["parse", "--format", "xml", "--sections", "thinking,action,answer", str(output_file)]
    )
    assert code == 0
    assert json.loads(capsys.readouterr().out) == {
        "thinking": ["add them", "second thought"],
        "action": ['{"tool": "calculator", "args": {"expression": "17*23"}}'],
    }


def test_markdown_from_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("# Thinking\nhm\n# Answer\n42\n"))
    assert main(["parse", "--format", "markdown", "--sections", "thinking,answer", "-"]) == 0
    assert json.loads(capsys.readouterr().out) == {"thinking": ["hm"], "answer": ["42"]}


def test_with_toolchain_prints_sections_and_calls(
    output_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "parse",
            "--format",
            "xml",
            "--sections",
            "thinking",
            "--toolchain",
            "json",
            str(output_file),
        ]
    )
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["calls"] == [{"tool": "calculator", "args": {"expression": "17*23"}}]
    assert printed["sections"]["thinking"] == ["add them", "second thought"]


def test_unparseable_calls_exit_1_with_model_facing_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cut.txt"
    path.write_text('<action>{"tool": "calculator", "args": {"expression": </action>')
    code = main(
        ["parse", "--format", "xml", "--sections", "action", "--toolchain", "json", str(path)]
    )
    assert code == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "cut off" in captured.err


def test_no_sections_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "plain.txt"
    path.write_text("just prose")
    assert main(["parse", "--format", "xml", "--sections", "answer", str(path)]) == 1
    assert "no recognised sections found" in capsys.readouterr().err


def test_truncated_output_warns_or_fails_in_strict_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cut.txt"
    path.write_text("<answer>forty")
    assert main(["parse", "--format", "xml", "--sections", "answer", str(path)]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {"answer": ["forty"]}
    assert "was never closed" in captured.err
    assert main(["parse", "--format", "xml", "--sections", "answer", "--strict", str(path)]) == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--format", "xmll", "--sections", "a"], "no format named 'xmll'; did you mean 'xml'?"),
        (["--format", "xml", "--sections", "a", "--toolchain", "jsn"], "no toolchain named 'jsn'"),
        (["--format", "xml", "--sections", " , "], "--sections needs at least one name"),
    ],
)
def test_bad_usage_exits_2(
    output_file: Path, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["parse", *argv, str(output_file)]) == 2
    assert message in capsys.readouterr().err


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "--format", "xml", "--sections", "a", str(tmp_path / "nope")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_missing_required_option_is_argparse_usage_error(output_file: Path) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["parse", "--sections", "a", str(output_file)])
    assert caught.value.code == 2
