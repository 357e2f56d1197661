"""The live view of ``gent run``: trimmed sections, tool lines, colours only on terminals."""

from __future__ import annotations

import io

from gent_xml.format import XMLFormat

from gent_core._cli.live import LiveView
from gent_core.events import OutputEvent


def render(text: str, chunk: int, *, color: bool = False) -> str:
    out = io.StringIO()
    view = LiveView(out, io.StringIO(), color=color)
    parser = XMLFormat().incremental_parser(["thinking", "answer"])
    for start in range(0, len(text), chunk):
        for event in parser.feed(text[start : start + chunk]):
            view(OutputEvent(1, event))
    for event in parser.close():
        view(OutputEvent(1, event))
    return out.getvalue()


OUTPUT = (
    "Sure!\n<thinking>\n  first line\n\n  second line \n</thinking>\n\n<answer>\n42\n</answer>\n"
)


def test_sections_are_trimmed_but_keep_inner_lines_for_any_chunking() -> None:
    expected = "Sure!\n[thinking] first line\n\n  second line\n[answer] 42\n"
    for chunk in (1, 2, 3, 7, len(OUTPUT)):
        assert render(OUTPUT, chunk) == expected, chunk


def test_colours_only_when_asked() -> None:
    assert "\x1b[" not in render(OUTPUT, 5)
    assert "\x1b[36;1m[thinking] \x1b[0m" in render(OUTPUT, 5, color=True)
