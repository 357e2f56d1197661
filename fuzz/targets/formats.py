"""The contract of a text format (:class:`~gent_core.formats.TextFormat`), for fuzz targets.

One-shot: ``parse`` returns sections or raises a documented error; every section is named
with a registered name, trimmed, within the text, and only the last may be incomplete; the
sections written back with ``format_sections`` parse to the same names and contents.
Streaming: fed in any chunks, the incremental parser gives the same result (or error) as
``parse``, its events are well formed (a section starts, has text, ends; never nested) and
its ``SectionEnded`` events carry the result's sections in order.
"""

from __future__ import annotations

from fuzz.targets.contract import chunked, outcome
from gent_core.errors import AmbiguousSectionError, NoSectionsFoundError
from gent_core.formats import TextFormat
from gent_core.sections import (
    FormattedSection,
    ParseResult,
    SectionEnded,
    SectionEvent,
    SectionStarted,
    TextDelta,
)

__all__ = ["NAMES", "check_one_shot", "check_streaming"]

NAMES = ("thinking", "action", "answer")
"""The sections every format target registers (the agent's own)."""

ERRORS: tuple[type[Exception], ...] = (NoSectionsFoundError, AmbiguousSectionError)
"""What ``parse`` and the incremental parser document (``AmbiguousSectionError`` only in the
XML format's strict mode)."""


def check_result(result: ParseResult, text: str) -> None:
    """The invariants of any parse result of ``text``."""
    assert result.sections, "a result without sections (NoSectionsFoundError is documented)"
    last = len(result.sections) - 1
    for index, section in enumerate(result.sections):
        where = f"section {index} ({section.name})"
        assert section.name in NAMES, f"{where}: not a registered name"
        assert section.content == section.content.strip(), f"{where}: content not trimmed"
        assert section.untrimmed.strip() == section.content, f"{where}: raw differs from content"
        assert 0 <= section.start <= section.end <= len(text), f"{where}: offsets out of the text"
        assert section.complete or index == last, f"{where}: incomplete but not last"
    assert result.outside == result.outside.strip(), "outside text not trimmed"


def check_round_trip(fmt: TextFormat, result: ParseResult) -> None:
    """The sections read, written back by the format, read back the same."""
    written = fmt.format_sections(
        [FormattedSection(section.name, section.content) for section in result.sections]
    )
    again = fmt.parse(written, NAMES)
    assert [(s.name, s.content) for s in again.sections] == [
        (s.name, s.content) for s in result.sections
    ], f"written back as {written!r}"
    assert all(section.complete for section in again.sections), f"incomplete in {written!r}"


def check_one_shot(fmt: TextFormat, text: str) -> None:
    """Parse ``text`` at once and check the result and its round trip."""
    try:
        result = fmt.parse(text, NAMES)
    except ERRORS:
        return
    check_result(result, text)
    check_round_trip(fmt, result)


def check_events(events: list[SectionEvent], result: ParseResult | None) -> None:
    """Events are well formed and end with the result's sections, in order."""
    current: str | None = None
    ended = []
    for event in events:
        if isinstance(event, SectionStarted):
            assert current is None, f"{event.name} started inside {current}"
            current = event.name
        elif isinstance(event, TextDelta):
            assert event.section == current, f"text of {event.section} inside {current}"
        elif isinstance(event, SectionEnded):
            assert event.name == current, f"{event.name} ended inside {current}"
            ended.append(event.section)
            current = None
    assert current is None, f"{current} never ended"
    expected = list(result.sections) if result is not None else []
    assert ended == expected, f"ended {ended} but the result is {expected}"


def check_streaming(fmt: TextFormat, text: str, choice: int) -> None:
    """Feed ``text`` in the chunks ``choice`` gives; compare with the one-shot parse."""
    one_shot = outcome(lambda: fmt.parse(text, NAMES), *ERRORS)
    parser = fmt.incremental_parser(NAMES)
    events: list[SectionEvent] = []
    try:
        for chunk in chunked(text, choice):
            events += parser.feed(chunk)
        events += parser.close()
    except ERRORS as error:
        raised: type[BaseException] | None = type(error)
    else:
        raised = None
    if raised is not None:
        assert raised is one_shot, f"streaming raised {raised.__name__}, one-shot gave {one_shot}"
        return
    streamed = outcome(parser.result, *ERRORS)
    assert streamed == one_shot, f"streaming gave {streamed}, one-shot {one_shot}"
    if isinstance(streamed, ParseResult):
        check_events(events, streamed)
    elif streamed is NoSectionsFoundError:
        check_events(events, None)
