"""Shared pieces of gent-natural's tests: tools and conversations."""

from __future__ import annotations

from typing import Any, Literal

from gent_natural.openai_messages import messages_from_openai

from gent_core.messages import Message, MessageToolCall
from gent_core.tools import tool


@tool
def get_weather(city: str, unit: Literal["c", "f"] = "c") -> dict[str, Any]:
    """The weather in a city."""
    return {"city": city, "temp": 21, "unit": unit}


@tool
def now() -> str:
    """The current time."""
    return "12:00"


TOOLS = [get_weather, now]

OPENAI_CONVERSATION: list[dict[str, Any]] = [
    {"role": "system", "content": "You are helpful."},
    {"role": "user", "content": "Weather in Paris and Rome, and the time?"},
    {
        "role": "assistant",
        "content": "Let me check both cities.",
        "tool_calls": [
            {
                "id": "call_a",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
            },
            {
                "id": "call_b",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city":"Rome","unit":"f"}'},
            },
        ],
    },
    {"role": "tool", "tool_call_id": "call_a", "content": '{"temp": 21, "sky": ["rain"]}'},
    {"role": "tool", "tool_call_id": "call_b", "content": "sunny, 77F"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "call_c", "type": "function", "function": {"name": "now", "arguments": "{}"}}
        ],
    },
    {"role": "tool", "tool_call_id": "call_c", "content": "12:00"},
    {"role": "assistant", "content": "Paris: rain, 21C. Rome: sunny, 77F. It is noon."},
    {"role": "user", "content": "Thanks! And Oslo?"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_d",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "call_d", "content": '{"temp": -3}'},
    {"role": "assistant", "content": "Oslo: -3C."},
]


def conversation() -> list[Message]:
    """The OpenAI conversation above as gent messages."""
    return messages_from_openai(OPENAI_CONVERSATION)


def call(call_id: str, name: str, arguments: str = "{}") -> MessageToolCall:
    """A native call."""
    return MessageToolCall(call_id, name, arguments)


async def chunks_of(text: str, sizes: list[int]) -> Any:
    """Yield ``text`` in chunks of the given sizes (the rest as one last chunk)."""
    position = 0
    for size in sizes:
        yield text[position : position + size]
        position += size
    if position < len(text):
        yield text[position:]


async def items_of(values: list[Any]) -> Any:
    """Yield ``values`` one by one."""
    for value in values:
        yield value
