"""Streaming text -> native: every chunking gives the same result, with bounded look-back and
linear work."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from gent_natural.events import MessageReady, NaturalEvent, ProseDelta, ToolCallRead
from gent_natural.native_to_text import to_text
from gent_natural.reader import TextReader, read_text
from gent_natural.scanner import ProseText, TagScanner
from gent_natural.streaming import stream_text_events, stream_text_to_native
from gent_natural.tags import MAX_TAG_LENGTH
from hypothesis import given, settings
from hypothesis import strategies as st
from natural_helpers import TOOLS, chunks_of, conversation

from gent_core.testing import PluginSandbox, assert_linear, profile_examples

FRAGMENTS = [
    "Let me check. ",
    "\n",
    "a < b ",
    "<",
    "<tool_",
    "<tool_call",
    "<tool_callx>",
    "<TOOL_CALL name='now'>{}</tool_call>",
    '<tool_call name="get_weather">\n{"city": "Paris"}\n</tool_call>',
    '<tool_call name="get_weather">```json\n{"city": "Rome"}\n```</tool_call >',
    '<tool_call>{"name": "now", "arguments": {}}</tool_call>',
    '<tool_call name="x" bad attr>',
    '<tool_response name="get_weather">\n{"temp": 21}\n</tool_response>',
    '<tool_response name="now" error="true"><![CDATA[\nx </tool_response> ]]]]><![CDATA[> y\n'
    "]]></tool_response>",
    "</tool_call>",
    "\n---\n",
    "<![CDATA[",
    "]]>",
    '<tool_call name="now">{',
]

texts = st.lists(st.sampled_from(FRAGMENTS), max_size=12).map("".join)


def run_chunks(chunks: list[str]) -> tuple[list[NaturalEvent], list[str]]:
    reader = TextReader(tools=TOOLS)
    events: list[NaturalEvent] = []
    for chunk in chunks:
        events += reader.feed(chunk)
    events += reader.close()
    return events, reader.problems


def merged(events: list[NaturalEvent]) -> tuple[list[NaturalEvent], list[NaturalEvent]]:
    """The events with adjacent prose joined, and the complete messages apart: how prose is
    split, and which prose arrived before a message was known to be complete, depend on the
    chunks; nothing else does.
    """
    out: list[NaturalEvent] = []
    for event in events:
        if isinstance(event, MessageReady):
            continue
        if isinstance(event, ProseDelta) and out and isinstance(out[-1], ProseDelta):
            out[-1] = ProseDelta(out[-1].text + event.text)
        else:
            out.append(event)
    return out, [event for event in events if isinstance(event, MessageReady)]


def split(text: str, cuts: list[int]) -> list[str]:
    points = sorted({min(cut, len(text)) for cut in cuts})
    bounds = [0, *points, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds)]


@profile_examples(300)
@given(texts, st.lists(st.integers(min_value=0, max_value=400), max_size=30))
def test_every_chunking_gives_the_same_events_and_messages(text: str, cuts: list[int]) -> None:
    whole, whole_problems = run_chunks([text])
    chunked, chunked_problems = run_chunks(split(text, cuts))
    assert merged(chunked) == merged(whole)
    assert chunked_problems == whole_problems


@profile_examples(300)
@given(texts, st.lists(st.integers(min_value=0, max_value=400), max_size=30))
def test_the_scanner_loses_nothing(text: str, cuts: list[int]) -> None:
    scanner = TagScanner()
    events = [event for chunk in split(text, cuts) for event in scanner.feed(chunk)]
    events += scanner.close()
    rebuilt = "".join(e.text if isinstance(e, ProseText) else e.raw for e in events)
    assert rebuilt == text


@settings(max_examples=20, deadline=None)
@given(texts)
def test_every_single_split_point_and_one_character_chunks(text: str) -> None:
    whole = merged(run_chunks([text])[0])
    for cut in range(len(text) + 1):
        assert merged(run_chunks([text[:cut], text[cut:]])[0]) == whole
    assert merged(run_chunks(list(text))[0]) == whole


def test_every_split_of_a_whole_converted_conversation() -> None:
    text = "\n".join(m.text for m in to_text(conversation()))
    whole = merged(run_chunks([text])[0])
    assert sum(isinstance(e, ToolCallRead) for e in whole[0]) == 4
    for cut in range(len(text) + 1):
        assert merged(run_chunks([text[:cut], text[cut:]])[0]) == whole


# --------------------------------------------------------------------------- look-back


def test_text_that_cannot_start_a_tag_is_released_at_once() -> None:
    reader = TextReader()
    assert reader.feed("Hello <") == [ProseDelta("Hello ")]
    assert reader.feed("b> and <t") == [ProseDelta("<b> and ")]
    assert reader.feed("able>") == [ProseDelta("<table>")]
    assert reader.feed("<tool_call") == []
    assert reader.feed("er x") == [ProseDelta("<tool_caller x")]  # "e" decides it


def test_a_possible_tag_start_is_held_only_until_decided() -> None:
    reader = TextReader()
    assert reader.feed('Sure. <tool_call name="Get') == [ProseDelta("Sure. ")]
    assert reader.feed('Weather">{"city": "Paris"}') == []
    events = reader.feed("</tool_call>")
    assert [type(e) for e in events] == [ToolCallRead]
    assert isinstance(events[0], ToolCallRead) and events[0].call.name == "GetWeather"


def test_a_dangling_partial_tag_is_released_as_text_at_the_end() -> None:
    reader = TextReader()
    assert reader.feed("The end <tool_") == [ProseDelta("The end ")]
    assert reader.close() == [ProseDelta("<tool_")]
    assert reader.problems == []


def test_look_back_is_bounded_by_the_longest_tag() -> None:
    reader = TextReader()
    held = '<tool_call name="' + "x" * MAX_TAG_LENGTH
    events = reader.feed(held[: MAX_TAG_LENGTH - 1])
    assert events == []
    events = reader.feed(held[MAX_TAG_LENGTH - 1 :])
    assert merged(events) == ([ProseDelta(held)], [])


def _read_in_chunks(text: str, chunk: int = 3) -> None:
    reader = TextReader()
    for start in range(0, len(text), chunk):
        reader.feed(text[start : start + chunk])
    reader.close()


def test_work_is_linear_in_the_input_even_for_adversarial_text() -> None:
    unit = (
        'prose <tool_ <tool_call name="' + "n" * 40 + '" x <b> '
        '<tool_call name="f">{"a": "' + "<" * 30 + '</tool_cal"}</tool_call>\n'
    )
    # 10x the input: about 10x the interpreter steps; quadratic work is about 100x.
    assert_linear(
        lambda size: unit * (size // len(unit)), _read_in_chunks, size=40 * len(unit), bound=25
    )


# --------------------------------------------------------------------------- async API


def test_messages_are_yielded_as_soon_as_they_are_certain() -> None:
    text = (
        'Checking. <tool_call name="now">{}</tool_call>\n'
        '<tool_response name="now">12:00</tool_response>\n'
        "It is noon. Let me also check Paris. "
        '<tool_call name="get_weather">{"city": "Paris"}</tool_call> Done.'
    )
    pieces = [text[i : i + 7] for i in range(0, len(text), 7)]
    consumed = 0
    seen: list[tuple[int, str]] = []

    async def source() -> Any:
        nonlocal consumed
        for piece in pieces:
            consumed += 1
            yield piece

    async def collect() -> None:
        async for message in stream_text_to_native(source()):
            seen.append((consumed, message.role))

    asyncio.run(collect())
    second_call = text.index('<tool_call name="get_weather">')
    ready_at = second_call // 7 + 1 + len('<tool_call name="get_weather">') // 7
    assert [role for _, role in seen] == ["assistant", "tool", "assistant", "assistant"]
    assert seen[0][0] <= ready_at + 2 < len(pieces)  # the first turn before the stream ends
    assert read_text(text) == [
        m for m in asyncio.run(_all(stream_text_to_native(chunks_of(text, [1] * 20))))
    ]


async def _all(stream: Any) -> list[Any]:
    return [item async for item in stream]


def test_event_stream_reports_problems_with_the_call() -> None:
    text = '<tool_call name="get_weather">{"town": "Paris"}</tool_call>'
    events = asyncio.run(_all(stream_text_events(chunks_of(text, [5] * 20), tools=TOOLS)))
    calls = [e for e in events if isinstance(e, ToolCallRead)]
    assert len(calls) == 1 and calls[0].problem is not None and "city" in calls[0].problem
    assert isinstance(events[-1], MessageReady)


def test_every_split_with_a_format_and_chain_gives_the_same_result() -> None:
    sandbox = PluginSandbox()
    sandbox.load_installed()
    registry = sandbox.registry()
    text = (
        "<thinking>Look it up.</thinking>\n"
        '<action>{"tool": "get_weather", "args": {"city": "Paris"}}</action>\n'
        "<observation>\n<get_weather>\nrain\n</get_weather>\n</observation>\nRain."
    )

    def run(chunks: list[str]) -> Any:
        reader = TextReader(
            text_format=registry.create("format", "xml"),
            chain=registry.create("toolchain", "json", tools=TOOLS),
        )
        events = [event for chunk in chunks for event in reader.feed(chunk)] + reader.close()
        return merged(events)

    whole = run([text])
    assert [type(m.message).__name__ for m in whole[1]] == ["Message"] * 3
    assert [m.message.role for m in whole[1]] == ["assistant", "tool", "assistant"]
    for cut in range(len(text) + 1):
        assert run([text[:cut], text[cut:]]) == whole
