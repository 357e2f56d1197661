"""Control characters written by a model or a tool are shown, never sent raw to the terminal,
with and without colours (issue 11, bug 15)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from gent_json import JSONToolChain
from gent_xml.format import XMLFormat

from gent_core._agent import Agent
from gent_core._cli.live import LiveView
from gent_core._cli.main import main
from gent_core._cli.output import Output, visible
from gent_core.testing import ScriptedModel
from gent_core.tools import tool

HOSTILE = (
    "\x1b]0;pwned title\x07"  # window title
    "\x1b[2J\x1b[H"  # erase the screen, cursor home
    "\x1b[1A\x1b[2K"  # cursor up, erase line
    "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\"  # OSC 8 link
    "\rover\x08\x7f\x9b31m\u202eevil\u2028\x00"
)
OUR_STYLE = re.compile(r"\x1b\[[0-9;]*m")  # the only escapes gent itself writes (colours)
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def assert_terminal_safe(text: str) -> None:
    assert RAW_CONTROL.search(OUR_STYLE.sub("", text)) is None, repr(text)


def test_visible_writes_every_dangerous_character_as_an_escape() -> None:
    shown = visible(HOSTILE + "\ttab\nline")
    assert_terminal_safe(shown)
    assert shown.startswith("\\x1b]0;pwned title\\x07\\x1b[2J")
    assert "\\roover" not in shown and "\\rover\\b\\x7f\\x9b31m\\u202eevil\\u2028\\0" in shown
    assert shown.endswith("\ttab\nline")  # tabs and newlines are kept


@tool
def echo_hostile() -> str:
    """Return text full of escape sequences."""
    return HOSTILE


@pytest.mark.parametrize("color", [False, True])
@pytest.mark.parametrize("chunk", [1, 4, 0])
def test_live_view_shows_model_and_tool_escapes_visibly(
    tmp_path: Path, color: bool, chunk: int
) -> None:
    outputs = [
        f"{HOSTILE}<thinking>{HOSTILE}</thinking><action>"
        '{"tool": "echo_hostile", "args": {}}</action>',
        '<action>{"tool": "nope\\u001b[2J", "args": {}}</action>',
        '<action>{"tool": "echo_hostile", "args": {}}</action>',  # the repair of that call
        f"<answer>{HOSTILE}</answer>",
    ]
    out = io.StringIO()
    agent = Agent(
        ScriptedModel(outputs, chunk_size=chunk),
        XMLFormat(),
        JSONToolChain(),
        tools=[echo_hostile],
        working_directory=tmp_path,
    )
    result = agent.run_sync(f"task {HOSTILE}", on_event=LiveView(out, io.StringIO(), color=color))
    assert result.ok
    text = out.getvalue()
    assert_terminal_safe(text)
    assert "\\x1b]0;pwned title\\x07" in text  # shown, so the person sees what was written
    assert "<- echo_hostile: \\x1b]0;pwned" in text
    assert "nope\\x1b[2J" in text


def test_output_writes_errors_visibly_and_survives_a_narrow_encoding() -> None:
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="ascii")
    Output(out=stream, err=stream).error("gent x", f"bad {HOSTILE} café")
    stream.flush()
    written = raw.getvalue().decode("ascii")
    assert_terminal_safe(written)
    assert written.startswith("gent x: error: bad \\x1b]0;pwned") and "caf\\xe9" in written


def test_parse_error_messages_show_escapes_visibly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "out.txt"
    hostile = HOSTILE[:-1]  # without its NUL byte: gent parse refuses binary input
    path.write_text(f'<action>{{"tool": "t", "args": {{"a": {hostile}}}}}</action>')
    args = ["parse", "--format", "xml", "--sections", "action", "--toolchain", "json", str(path)]
    assert main(args) == 1
    captured = capsys.readouterr()
    assert_terminal_safe(captured.err)
    assert "not valid JSON" in captured.err
