"""Streaming parsing of the xml format: events, split tags, strict mode's agreement with
parse() (the default mode's agreement is checked by the conformance kit)."""

from __future__ import annotations

import contextlib

import pytest
from gent_xml import XMLFormat
from gent_xml.scanner import unwrap_cdata
from hypothesis import given
from hypothesis import strategies as st

from gent_core.errors import AmbiguousSectionError, NoSectionsFoundError
from gent_core.sections import ParseResult, SectionEnded, SectionEvent, SectionStarted, TextDelta
from gent_core.testing import profile_examples, stream_parse

NAMES = ["thinking", "action", "answer"]

TOKENS = st.sampled_from(
    [
        "<thinking>",
        "</thinking>",
        "<answer>",
        "</answer >",
        "</ANSWER>",
        "<Action name='x' n=1>",
        '<action a="b">',
        "</action>",
        "<answer/>",
        "<![CDATA[",
        "]]>",
        "]]",
        "<",
        "</",
        "<thin",
        ">",
        "/",
        "=",
        '"',
        " ",
        "\n",
        "a",
        "<b>",
        "\r",
        "é",
        "\u212a",
    ]
)
TEXTS = st.one_of(st.lists(TOKENS, max_size=30).map("".join), st.text(max_size=60))


def chunked(text: str, sizes: list[int]) -> list[str]:
    chunks, pos, i = [], 0, 0
    while pos < len(text):
        size = sizes[i % len(sizes)] if sizes else 1
        chunks.append(text[pos : pos + size])
        pos += size
        i += 1
    return chunks


def outcome(run: object) -> ParseResult | str:
    try:
        return run()  # type: ignore[operator, no-any-return]
    except (NoSectionsFoundError, AmbiguousSectionError) as error:
        return type(error).__name__


def test_tags_split_across_chunks_are_recognised() -> None:
    events, result = stream_parse(
        XMLFormat(), NAMES, ["<thi", "nk", "ing>", "a", "b</", "thin", "king", ">"]
    )
    assert result.get("thinking") == ["ab"]
    assert isinstance(events[0], SectionStarted) and events[0].name == "thinking"
    assert isinstance(events[-1], SectionEnded) and events[-1].complete


def test_one_character_chunks() -> None:
    text = 'pre <action name="x">[1]</action><answer>42</answer>'
    _, result = stream_parse(XMLFormat(), NAMES, list(text))
    assert result == XMLFormat().parse(text, NAMES)
    assert dict(result.sections[0].attributes) == {"name": "x"}


def test_events_come_as_soon_as_they_are_certain() -> None:
    parser = XMLFormat().incremental_parser(NAMES)
    assert parser.feed("<ans") == []  # could still be <answer>
    assert parser.feed("wer>The ") == [SectionStarted("answer"), TextDelta("answer", "The ")]
    assert parser.feed("result<") == [TextDelta("answer", "result")]  # "<" may start </answer>
    assert parser.feed("b>!") == [TextDelta("answer", "<b>!")]
    events = parser.feed("</answer>")
    assert [type(e) for e in events] == [SectionEnded]
    assert parser.close() == []


def test_text_outside_sections_streams_as_outside_deltas() -> None:
    parser = XMLFormat().incremental_parser(NAMES)
    assert parser.feed("Hello ") == [TextDelta(None, "Hello ")]


def test_close_reports_truncation_with_the_content_so_far() -> None:
    parser = XMLFormat().incremental_parser(NAMES)
    parser.feed("<answer>The result is 4")
    parser.feed("</ans")
    events = parser.close()
    assert isinstance(events[-1], SectionEnded)
    assert not events[-1].complete
    assert events[-1].section.content == "The result is 4</ans"
    assert parser.result().truncated is not None


def test_result_before_close_shows_the_open_section_as_incomplete() -> None:
    parser = XMLFormat().incremental_parser(NAMES)
    parser.feed("<thinking>a</thinking><answer>4")
    partial = parser.result()
    assert partial.get("answer") == ["4"]
    assert partial.truncated is not None


def test_result_without_sections_raises() -> None:
    parser = XMLFormat().incremental_parser(NAMES)
    parser.feed("nothing here")
    parser.close()
    with pytest.raises(NoSectionsFoundError):
        parser.result()


def test_feed_after_close_is_an_error() -> None:
    parser = XMLFormat().incremental_parser(NAMES)
    parser.close()
    with pytest.raises(ValueError, match="after close"):
        parser.feed("x")


def test_strict_streaming_raises_as_soon_as_the_tag_is_certain() -> None:
    parser = XMLFormat(strict=True).incremental_parser(NAMES)
    parser.feed("<thinking>I will use <answ")
    with pytest.raises(AmbiguousSectionError):
        parser.feed("er> tags")
    with pytest.raises(AmbiguousSectionError):
        parser.result()


@given(text=TEXTS, sizes=st.lists(st.integers(1, 12), max_size=8))
@profile_examples(600)
def test_strict_streaming_result_equals_one_shot_parse_for_any_chunking(
    text: str, sizes: list[int]
) -> None:
    fmt = XMLFormat(strict=True)
    expected = outcome(lambda: fmt.parse(text, NAMES))
    got = outcome(lambda: stream_parse(fmt, NAMES, chunked(text, sizes))[1])
    assert got == expected


@given(text=TEXTS, sizes=st.lists(st.integers(1, 12), max_size=8))
@profile_examples(400)
def test_events_rebuild_the_result(text: str, sizes: list[int]) -> None:
    parser = XMLFormat().incremental_parser(NAMES)
    events: list[SectionEvent] = []
    for chunk in chunked(text, sizes):
        events += parser.feed(chunk)
    events += parser.close()
    position = 0
    for event in events:  # the deltas are pieces of the text, in order
        if isinstance(event, TextDelta):
            found = text.find(event.text, position)
            assert found >= 0
            position = found + len(event.text)
    try:
        result = parser.result()
    except NoSectionsFoundError:
        assert not any(isinstance(event, SectionStarted) for event in events)
        return
    ended = [event.section for event in events if isinstance(event, SectionEnded)]
    assert tuple(ended) == result.sections
    started = [event.name for event in events if isinstance(event, SectionStarted)]
    assert started == [section.name for section in result]
    raw: list[list[str]] = []
    for event in events:
        if isinstance(event, SectionStarted):
            raw.append([])
        elif isinstance(event, TextDelta) and event.section is not None:
            raw[-1].append(event.text)
    for pieces, section in zip(raw, result, strict=True):
        assert unwrap_cdata("".join(pieces)) == section.raw
        assert section.content == (section.raw or "").strip()
        assert text[section.start] == "<"


@given(chunks=st.lists(TEXTS, max_size=6))
@profile_examples(400)
def test_strict_mode_raises_nothing_but_the_documented_errors(chunks: list[str]) -> None:
    fmt = XMLFormat(strict=True)
    with contextlib.suppress(NoSectionsFoundError, AmbiguousSectionError):
        fmt.parse("".join(chunks), NAMES)
    parser = fmt.incremental_parser(NAMES)
    with contextlib.suppress(NoSectionsFoundError, AmbiguousSectionError):
        for chunk in chunks:
            parser.feed(chunk)
        parser.close()
        parser.result()
