"""Streaming parsing of the markdown format: events, split headers and fences, every header
level (agreement with parse() at level 1 is also checked by the conformance kit)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import pytest
from gent_markdown import MarkdownFormat
from gent_markdown.lines import unwrap_verbatim
from hypothesis import given
from hypothesis import strategies as st

from gent_core.errors import NoSectionsFoundError
from gent_core.sections import ParseResult, SectionEnded, SectionEvent, SectionStarted, TextDelta
from gent_core.testing import profile_examples, stream_parse

NAMES = ["thinking", "action", "answer"]

TOKENS = st.sampled_from(
    [
        "# thinking",
        "# Answer",
        "#  action {a=1 b='x y'}",
        "# action:",
        "## answer",
        "# observation",
        "#",
        "# ",
        "```",
        "````",
        "~~~",
        "   ```",
        "    ```",
        "```verbatim",
        "`",
        "~",
        "\n",
        "\n",
        "\n",
        " ",
        "\t",
        "x",
        ":",
        "{",
        "}",
        "\r",
        "é",
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


def outcome(run: Callable[[], ParseResult]) -> ParseResult | str:
    try:
        return run()
    except NoSectionsFoundError as error:
        return type(error).__name__


def test_headers_split_across_chunks_are_recognised() -> None:
    events, result = stream_parse(MarkdownFormat(), NAMES, ["x\n#", " Ans", "wer", "\n4", "2"])
    assert result.get("answer") == ["42"]
    assert result.outside == "x"
    assert [e.name for e in events if isinstance(e, SectionStarted)] == ["answer"]


def test_fences_split_across_chunks_hide_headers() -> None:
    chunks = ["# action\n`", "``\n# Ans", "wer\n``", "`\n# answer\nok"]
    _, result = stream_parse(MarkdownFormat(), NAMES, chunks)
    assert result.get("action") == ["```\n# Answer\n```"]
    assert result.get("answer") == ["ok"]


def test_one_character_chunks() -> None:
    text = "pre\n# Action {tool=x}\n```\n# Answer\n```\n#  answer :\r\n42\n"
    _, result = stream_parse(MarkdownFormat(), NAMES, list(text))
    assert result == MarkdownFormat().parse(text, NAMES)


def test_events_come_as_soon_as_they_are_certain() -> None:
    parser = MarkdownFormat().incremental_parser(NAMES)
    assert parser.feed("# Ans") == []  # could still be "# Answer"
    assert parser.feed("wer\nThe ") == [SectionStarted("answer"), TextDelta("answer", "The ")]
    assert parser.feed("result\n#") == [TextDelta("answer", "result\n")]  # "#" may start a header
    assert parser.feed(" note") == [TextDelta("answer", "# note")]  # no name starts with "note"
    assert parser.feed(" more") == [TextDelta("answer", " more")]


def test_close_reports_truncation_inside_a_fence() -> None:
    parser = MarkdownFormat().incremental_parser(NAMES)
    parser.feed("# action\n```json\n{")
    events = parser.close()
    assert isinstance(events[-1], SectionEnded) and not events[-1].complete
    assert parser.result().truncated is not None


def test_a_header_in_an_open_fence_is_held_until_the_fence_closes() -> None:
    parser = MarkdownFormat().incremental_parser(NAMES)
    assert parser.feed("# Thinking\nsee\n```\n") == [
        SectionStarted("thinking"),
        TextDelta("thinking", "see\n```\n"),
    ]
    assert parser.feed("# Answer\nlater\n") == []  # held: the fence may close or not
    events = parser.feed("```\nok\n")
    assert events == [
        TextDelta("thinking", "# Answer\nlater\n```\n"),
        TextDelta("thinking", "ok\n"),
    ]


def test_a_header_in_a_fence_never_closed_starts_its_section_at_the_end() -> None:
    parser = MarkdownFormat().incremental_parser(NAMES)
    parser.feed("# Thinking\nsee\n```python\nx = 1\n# Action\n")
    assert parser.feed('{"tool": "t"}') == []
    events = parser.close()
    assert [type(e) for e in events] == [SectionEnded, SectionStarted, TextDelta, SectionEnded]
    assert parser.result().get("action") == ['{"tool": "t"}']


def test_result_before_close_shows_the_open_section_as_incomplete() -> None:
    parser = MarkdownFormat().incremental_parser(NAMES)
    parser.feed("# answer\n4")
    assert parser.result().truncated is not None


def test_feed_after_close_is_an_error() -> None:
    parser = MarkdownFormat().incremental_parser(NAMES)
    parser.close()
    with pytest.raises(ValueError, match="after close"):
        parser.feed("x")


def test_result_without_sections_raises() -> None:
    parser = MarkdownFormat().incremental_parser(NAMES)
    parser.feed("## answer\n42")
    parser.close()
    with pytest.raises(NoSectionsFoundError):
        parser.result()


@given(text=TEXTS, sizes=st.lists(st.integers(1, 12), max_size=8))
@profile_examples(400)
def test_events_rebuild_the_result(text: str, sizes: list[int]) -> None:
    parser = MarkdownFormat().incremental_parser(NAMES)
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
    raw: list[list[str]] = []
    for event in events:
        if isinstance(event, SectionStarted):
            raw.append([])
        elif isinstance(event, TextDelta) and event.section is not None:
            raw[-1].append(event.text)
    for pieces, section in zip(raw, result, strict=True):
        assert unwrap_verbatim("".join(pieces)) == section.raw
        assert section.content == (section.raw or "").strip()
        assert text[section.start] == "#"


@given(chunks=st.lists(TEXTS, max_size=6), level=st.integers(2, 3))
@profile_examples(400)
def test_deeper_levels_raise_nothing_but_the_documented_error(
    chunks: list[str], level: int
) -> None:
    fmt = MarkdownFormat(level=level)
    with contextlib.suppress(NoSectionsFoundError):
        fmt.parse("".join(chunks), NAMES)
    parser = fmt.incremental_parser(NAMES)
    try:
        for chunk in chunks:
            parser.feed(chunk)
        parser.close()
        parser.result()
    except NoSectionsFoundError:
        pass
