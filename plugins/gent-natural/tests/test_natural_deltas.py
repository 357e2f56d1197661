"""Native -> text on a streamed reply: OpenAI chat-completion deltas in, text chunks out."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from gent_natural.deltas import DeltaError, DeltaWriter, stream_deltas_to_text
from gent_natural.options import NaturalOptions
from gent_natural.reader import read_text
from natural_helpers import items_of


def chunk(delta: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": delta, "finish_reason": None}],
    }


def call_start(index: int, call_id: str, name: str) -> dict[str, Any]:
    return chunk(
        {
            "tool_calls": [
                {
                    "index": index,
                    "id": call_id,
                    "type": "function",
                    "function": {"name": name, "arguments": ""},
                }
            ]
        }
    )


def arguments(index: int, piece: str) -> dict[str, Any]:
    return chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})


STREAM = [
    chunk({"role": "assistant", "content": ""}),
    chunk({"content": "Let me "}),
    chunk({"content": "check."}),
    call_start(0, "call_a", "get_weather"),
    arguments(0, '{"ci'),
    arguments(0, 'ty": "Par'),
    arguments(0, 'is"}'),
    call_start(1, "call_b", "now"),
    arguments(1, "{}"),
    {"id": "chatcmpl-1", "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    {"id": "chatcmpl-1", "choices": [], "usage": {"prompt_tokens": 5, "completion_tokens": 9}},
]


def collect(items: list[Any], options: NaturalOptions | None = None) -> list[str]:
    async def run() -> list[str]:
        return [text async for text in stream_deltas_to_text(items_of(items), options)]

    return asyncio.run(run())


def test_a_streamed_reply_with_parallel_calls_becomes_tag_text() -> None:
    pieces = collect(STREAM)
    assert pieces == [
        "Let me ",
        "check.",
        '\n<tool_call name="get_weather">\n{\n  "city": "Paris"\n}\n</tool_call>',
        '\n<tool_call name="now">\n{}\n</tool_call>',
    ]
    [message] = read_text("".join(pieces))
    assert message.text == "Let me check."
    assert [(c.name, c.parsed_arguments()) for c in message.tool_calls] == [
        ("get_weather", {"city": "Paris"}),
        ("now", {}),
    ]


def test_text_is_released_as_soon_as_it_is_certain() -> None:
    writer = DeltaWriter()
    assert writer.feed(STREAM[1]) == "Let me "
    assert writer.feed(STREAM[3]) == ""
    assert writer.feed(STREAM[4]) == ""  # arguments are held until the call is complete
    writer.feed(STREAM[5])
    writer.feed(STREAM[6])
    assert writer.feed(STREAM[7]).startswith('\n<tool_call name="get_weather">')
    assert writer.feed({"content": "Done."}) == '\n<tool_call name="now">\n{}\n</tool_call>\nDone.'
    assert writer.close() == ""


def test_pretty_print_off_and_awkward_arguments() -> None:
    items = [call_start(0, "c", "f"), arguments(0, '{"x":"</tool_call>"}')]
    [text] = collect(items, NaturalOptions(pretty_print_json=False))
    assert text == '<tool_call name="f"><![CDATA[\n{"x":"</tool_call>"}\n]]></tool_call>'
    [message] = read_text(text)
    assert message.tool_calls[0].parsed_arguments() == {"x": "</tool_call>"}


@pytest.mark.parametrize(
    ("item", "problem"),
    [
        ("text", "stream item 0: expected a delta object, got str"),
        ({"choices": {"delta": {}}}, "'choices' must be a list"),
        ({"choices": [{"delta": "x"}]}, "'choices[0].delta' must be an object"),
        ({"tool_calls": {"index": 0}}, "'tool_calls' must be a list"),
        ({"tool_calls": [{"index": "0"}]}, 'an integer "index"'),
        ({"tool_calls": [{"index": 0, "function": "f"}]}, "'function' must be an object"),
    ],
)
def test_items_that_are_not_deltas_are_refused_clearly(item: Any, problem: str) -> None:
    with pytest.raises(DeltaError, match=re.escape(problem)):
        DeltaWriter().feed(item)
