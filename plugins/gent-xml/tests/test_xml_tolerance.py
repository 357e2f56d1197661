"""The delimiter habits of instruct models that the xml format reads: a section never closed
ends where another section opens inside it. Never more: a section closed later keeps every
tag inside it as content."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from gent_xml import XMLFormat
from gent_xml.scanner import XMLScanner
from hypothesis import given
from hypothesis import strategies as st

from gent_core.errors import AmbiguousSectionError
from gent_core.sections import SectionEnded, SectionStarted, TextDelta
from gent_core.testing import profile_examples, stream_parse

NAMES = ["thinking", "action", "answer"]


def read(text: str) -> list[tuple[str, str, bool]]:
    return [(s.name, s.content, s.complete) for s in XMLFormat().parse(text, NAMES)]


def test_an_action_opened_inside_an_unclosed_thinking_ends_the_thinking() -> None:
    text = 'Let me think.\n<thinking> I call the tool "add".\n<action>{"tool": "add"}'
    assert read(text) == [
        ("thinking", 'I call the tool "add".', True),
        ("action", '{"tool": "add"}', True),
    ]
    parsed = XMLFormat().parse(text, NAMES)
    assert parsed.sections[0].end == parsed.sections[1].start == text.index("<action>")


def test_the_closed_action_after_an_unclosed_thinking_is_read_whole() -> None:
    text = "<thinking>plan\n<action>[1]</action>\n<observation>made up</observation>"
    assert read(text) == [("thinking", "plan", True), ("action", "[1]", True)]


def test_a_thinking_closed_later_keeps_the_tags_inside_it() -> None:
    text = "<thinking>I will write <answer>4</answer> then</thinking><answer>5</answer>"
    assert read(text) == [
        ("thinking", "I will write <answer>4</answer> then", True),
        ("answer", "5", True),
    ]


def test_a_section_opening_its_own_name_again_is_content() -> None:
    assert read("<thinking>a <thinking> b") == [("thinking", "a <thinking> b", False)]


def test_only_the_first_reading_is_tolerant() -> None:
    # thinking ends at <answer>; the answer is then read by the plain rules: the <action>
    # inside it is content, and the end of the output closes it
    assert read("<thinking>see <answer>x <action>[1]") == [
        ("thinking", "see", True),
        ("answer", "x <action>[1]", True),
    ]
    assert read("<thinking>a <answer>b</answer> <action>[1]") == [
        ("thinking", "a", True),
        ("answer", "b", True),
        ("action", "[1]", True),
    ]


def test_a_section_read_again_and_left_open_ends_with_the_output() -> None:
    # while it streamed, the agent saw only the thinking open: it could not restore the
    # closing tag a stop sequence took, so the end of the output closes the action
    assert read("<thinking>plan <action>[1]") == [
        ("thinking", "plan", True),
        ("action", "[1]", True),
    ]


def test_a_section_left_open_from_the_start_is_still_reported_cut_off() -> None:
    # the agent closes it itself when the back end stopped (finish reason "stop"), and
    # names it when the output was cut off
    assert read("<answer>42") == [("answer", "42", False)]
    assert read("<thinking>plan</thinking><action>[1]")[-1] == ("action", "[1]", False)


def test_strict_mode_reads_no_habit() -> None:
    with pytest.raises(AmbiguousSectionError):
        XMLFormat(strict=True).parse("<thinking>plan <action>[1]", NAMES)


def test_streaming_holds_the_text_after_the_tag_until_it_is_decided() -> None:
    parser = XMLFormat().incremental_parser(NAMES)
    assert parser.feed("<thinking>plan ") == [
        SectionStarted("thinking"),
        TextDelta("thinking", "plan "),
    ]
    assert parser.feed("<action>[1]") == []
    assert parser.feed("</action>") == []  # still inside the thinking, if it closes later
    events = parser.close()
    assert [type(e) for e in events] == [SectionEnded, SectionStarted, TextDelta, SectionEnded]
    assert parser.result().get("action") == ["[1]"]


def test_streaming_releases_the_held_text_when_the_section_closes() -> None:
    parser = XMLFormat().incremental_parser(NAMES)
    parser.feed("<thinking>plan <answer>x")
    events = parser.feed(" y</thinking>")
    assert events[0] == TextDelta("thinking", "<answer>x y")
    assert isinstance(events[1], SectionEnded) and events[1].section.content == "plan <answer>x y"


@pytest.mark.parametrize("size", [1, 3, 7, 64])
def test_streaming_in_any_chunks_gives_the_one_shot_reading(size: int) -> None:
    text = "pre <thinking>call <Action name='x'>{\"tool\": 1}</action> <answer>no"
    chunks = [text[i : i + size] for i in range(0, len(text), size)]
    _, result = stream_parse(XMLFormat(), NAMES, chunks)
    assert result == XMLFormat().parse(text, NAMES)


@contextmanager
def scanned_characters() -> Iterator[list[int]]:
    """Count the characters every scanner's ``_scan`` is given (the held text read again
    included)."""
    count = [0]
    scan = XMLScanner._scan

    def counting(self: XMLScanner, buf: str, final: bool) -> object:
        count[0] += len(buf)
        return scan(self, buf, final)

    XMLScanner._scan = counting  # type: ignore[method-assign, assignment]
    try:
        yield count
    finally:
        XMLScanner._scan = scan  # type: ignore[method-assign]


@pytest.mark.parametrize(
    "unit", ["<action><answer>", "<answer/><action a='1'>", "<thinking><action>", "<act"]
)
@pytest.mark.parametrize("closed", [False, True])
def test_every_character_is_scanned_at_most_twice(unit: str, closed: bool) -> None:
    text = "<thinking>" + unit * 2000 + ("</thinking>" if closed else "")
    for chunk_size in (len(text), 5):
        with scanned_characters() as count:
            parser = XMLFormat().incremental_parser(NAMES)
            for start in range(0, len(text), chunk_size):
                parser.feed(text[start : start + chunk_size])
            parser.close()
        # the text once, read again once at most, plus the undecided tails (one tag each)
        assert count[0] <= 2 * len(text) + 20 * len(text) // chunk_size, (unit, chunk_size)


PROSE = st.lists(
    st.sampled_from([*"ab <>/\n{}\"'=", "<b>", "</b>", "</thinkin", "<action"]), max_size=30
).map("".join)


@given(thinking=PROSE, action=PROSE, sizes=st.lists(st.integers(1, 9), max_size=5))
@profile_examples(300)
def test_leaving_the_thinking_open_reads_the_same_sections(
    thinking: str, action: str, sizes: list[int]
) -> None:
    """Dropping ``</thinking>`` before an action changes nothing the agent reads (when the
    thinking holds no section tag of its own), streamed in any chunks."""
    names = NAMES
    closed = f"<thinking>{thinking}</thinking><action>{action}</action>"
    left_open = f"<thinking>{thinking}<action>{action}</action>"
    expected = XMLFormat().parse(closed, names)
    if [s.name for s in expected] != ["thinking", "action"] or "<action" in thinking:
        return  # the drawn text closed or opened a section itself, or names one in the thinking
    chunks, position = [], 0
    for size in [*sizes, len(left_open)]:
        chunks.append(left_open[position : position + size])
        position += size
    for got in (XMLFormat().parse(left_open, names), stream_parse(XMLFormat(), names, chunks)[1]):
        assert [(s.name, s.content, s.complete) for s in got] == [
            (s.name, s.content, s.complete) for s in expected
        ]
