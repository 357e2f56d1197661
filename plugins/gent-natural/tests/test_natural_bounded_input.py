"""``gent convert`` reads its input within gent's bounds and its size limit: bad input exits 1
with a message naming the input, the bound and how to change it, never a traceback."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from gent_core.testing import run_cli as main


def convert(
    arguments: list[str], stdin: str, capsys: pytest.CaptureFixture[str], mp: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    mp.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    code = main(["convert", "--to", "text", *arguments])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_file_nested_2500_levels_deep_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 2500 + "]" * 2500)
    code, out, err = convert([str(deep)], "", capsys, monkeypatch)
    assert (code, out) == (1, "")
    assert err.startswith(f"gent convert: {deep} nests more than 100 levels deep")
    assert "Traceback" not in err and "RecursionError" not in err


def test_a_message_nested_past_the_bound_names_where(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    content = json.dumps([{"role": "user", "content": "DEEP"}]).replace(
        '"DEEP"', "[" * 150 + "]" * 150
    )
    code, _, err = convert([], content, capsys, monkeypatch)
    assert code == 1
    assert "the value at [0].content[0] in standard input nests more than 100 levels" in err


def test_a_jsonl_line_with_a_huge_integer_names_the_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = '{"role": "user", "content": "hi"}\n{"role": "user", "content": ' + "9" * 5000 + "}\n"
    code, _, err = convert([], lines, capsys, monkeypatch)
    assert code == 1
    assert "standard input, line 2: an integer has 5,000 digits" in err
    assert "set_int_max_str_digits" not in err


def test_input_over_the_size_limit_is_refused_and_says_how_to_raise_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    chat = json.dumps([{"role": "user", "content": "x" * 3000}])
    monkeypatch.setenv("GENT_MAX_CONVERSATION_SIZE", "2K")
    code, _, err = convert([], chat, capsys, monkeypatch)
    assert code == 1
    assert "standard input holds more than 2,048 bytes (2 KiB), the most a conversation" in err
    assert "set GENT_MAX_CONVERSATION_SIZE to a larger size" in err
    path = tmp_path / "chat.json"
    path.write_text(chat)
    code, _, err = convert([str(path)], "", capsys, monkeypatch)
    assert code == 1
    assert f"{path} is {len(chat):,} bytes (3 KiB); a conversation file may be at most" in err
    monkeypatch.setenv("GENT_MAX_CONVERSATION_SIZE", "4K")
    code, out, _ = convert([str(path)], "", capsys, monkeypatch)
    assert code == 0 and json.loads(out)[0]["content"] == "x" * 3000
