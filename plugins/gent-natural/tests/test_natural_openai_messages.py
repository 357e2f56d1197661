"""OpenAI chat messages: gent-natural's reader, and the exact round trip through its
writer."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from gent_natural.openai_messages import (
    OpenAIMessageError,
    message_from_openai,
    messages_from_openai,
)
from gent_natural.openai_writer import OPENAI_FORM_KEY, message_to_openai, messages_to_openai
from hypothesis import given
from hypothesis import strategies as st

from gent_core.messages import ImagePart, TextPart

PNG = base64.b64encode(b"\x89PNG\r\n").decode()

CONVERSATION: list[dict[str, Any]] = [
    {"role": "system", "content": "You are helpful."},
    {"role": "user", "content": "Weather in Paris and Rome?", "name": "ann"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_a",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
            },
            {
                "id": "call_b",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Rome"}'},
            },
        ],
        "refusal": None,
    },
    {"role": "tool", "tool_call_id": "call_a", "content": '{"temp": 21}'},
    {"role": "tool", "tool_call_id": "call_b", "content": "sunny", "name": "get_weather"},
    {"role": "assistant", "content": "Paris 21, Rome sunny."},
    {
        "role": "user",
        "content": [
            {"type": "text", "text": "And this?"},
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
        ],
    },
]


def test_conversation_reads_into_messages() -> None:
    messages = messages_from_openai(CONVERSATION)
    assert [m.role for m in messages] == [
        "system",
        "user",
        "assistant",
        "tool",
        "tool",
        "assistant",
        "user",
    ]
    assert messages[1].name == "ann"
    calls = messages[2].tool_calls
    assert [(c.id, c.name, c.arguments) for c in calls] == [
        ("call_a", "get_weather", '{"city":"Paris"}'),
        ("call_b", "get_weather", '{"city": "Rome"}'),
    ]
    assert messages[2].parts == ()
    assert messages[2].metadata == {"refusal": None}
    assert messages[3].tool_call_id == "call_a"
    assert messages[3].text == '{"temp": 21}'
    assert messages[6].parts == (TextPart("And this?"), ImagePart(b"\x89PNG\r\n", "image/png"))


def test_conversation_round_trips_exactly() -> None:
    assert messages_to_openai(messages_from_openai(CONVERSATION)) == CONVERSATION


@pytest.mark.parametrize(
    "message",
    [
        {
            "role": "assistant",
            "tool_calls": [
                {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}
            ],
        },
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"id": "c", "function": {"name": "f", "arguments": "{bad json"}, "index": 0}
            ],
        },
        {"role": "user", "content": [{"type": "text", "text": "one part"}]},
        {"role": "user", "content": []},
        {"role": "assistant", "content": "hi", "tool_calls": None, "function_call": None},
        {"role": "assistant", "content": "hi", "tool_calls": []},
        {"role": "developer", "content": "Be brief."},
        {"role": "tool", "tool_call_id": "c", "content": "failed", "is_error": True},
        {"role": "tool", "tool_call_id": "c", "content": "ok", "is_error": False},
        {"role": "tool", "content": "no id"},
        {
            "role": "user",
            "content": [
                {
                    "type": "image_url",
                    "image_url": {"url": "https://example.com/a.png", "detail": "high"},
                }
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBO\nRw=="}}
            ],
        },
        {
            "role": "assistant",
            "content": "x",
            "tool_calls": [
                {
                    "id": "c",
                    "type": "function",
                    "function": {"name": "f", "arguments": "{}", "strict": True},
                }
            ],
        },
    ],
)
def test_other_spellings_round_trip_exactly(message: dict[str, Any]) -> None:
    assert message_to_openai(message_from_openai(message)) == message


def test_spelling_hints_are_metadata() -> None:
    developer = message_from_openai({"role": "developer", "content": "x"})
    assert developer.role == "system"
    assert developer.metadata[OPENAI_FORM_KEY] == {"role": "developer"}
    failed = message_from_openai(
        {"role": "tool", "tool_call_id": "c", "content": "x", "is_error": True}
    )
    assert failed.is_error and "is_error" not in failed.metadata


@pytest.mark.parametrize(
    ("data", "index", "field", "problem"),
    [
        ([{"role": "user", "content": "x"}, "hello"], 1, "", "must be an object"),
        ([{"content": "x"}], 0, "role", "missing"),
        ([{"role": "robot", "content": "x"}], 0, "role", "unknown role 'robot'"),
        ([{"role": "function", "content": "x"}], 0, "role", "legacy role 'function'"),
        ([{"role": "user", "content": 3}], 0, "content", "got a number"),
        (
            [{"role": "user", "content": [{"type": "audio"}]}],
            0,
            "content[0].type",
            "unsupported content part type 'audio'",
        ),
        (
            [{"role": "user", "content": [{"type": "text"}]}],
            0,
            "content[0].text",
            "must be a string",
        ),
        (
            [{"role": "user", "content": [{"type": "image_url", "image_url": "u"}]}],
            0,
            "content[0].image_url",
            'with a "url" string',
        ),
        (
            [{"role": "user", "content": "x", "tool_calls": [{}]}],
            0,
            "tool_calls",
            "only assistant messages",
        ),
        ([{"role": "assistant", "tool_calls": {"id": "c"}}], 0, "tool_calls", "must be a list"),
        (
            [{"role": "assistant", "tool_calls": [{"type": "function"}]}],
            0,
            "tool_calls[0].id",
            "must be a string",
        ),
        (
            [{"role": "assistant", "tool_calls": [{"id": "c", "type": "custom"}]}],
            0,
            "tool_calls[0].type",
            'only "function" calls',
        ),
        (
            [
                {
                    "role": "assistant",
                    "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": {"a": 1}}}],
                }
            ],
            0,
            "tool_calls[0].function.arguments",
            "must be a string holding the arguments as JSON, got an object",
        ),
        (
            [{"role": "assistant", "tool_calls": [{"id": "c", "function": {"arguments": "{}"}}]}],
            0,
            "tool_calls[0].function.name",
            "non-empty string",
        ),
        (
            [{"role": "user", "content": "x", "tool_call_id": "c"}],
            0,
            "tool_call_id",
            "only tool messages",
        ),
        ([{"role": "user", "content": "x", "name": 5}], 0, "name", "must be a string"),
    ],
)
def test_bad_messages_name_index_and_field(
    data: list[Any], index: int, field: str, problem: str
) -> None:
    with pytest.raises(OpenAIMessageError) as caught:
        messages_from_openai(data)
    error = caught.value
    assert (error.index, error.field) == (index, field)
    assert problem in str(error)
    assert str(error).startswith(f"message {index}")


def test_errors_say_what_is_accepted() -> None:
    with pytest.raises(OpenAIMessageError) as caught:
        message_from_openai({"role": "assistant", "tool_calls": [{"id": "c"}]}, 4)
    assert "Accepted:" in str(caught.value)
    assert (caught.value.index, caught.value.field) == (4, "tool_calls[0].function")


def test_a_single_object_is_not_a_conversation() -> None:
    with pytest.raises(OpenAIMessageError, match="expected a list of messages"):
        messages_from_openai({"role": "user", "content": "x"})


# --------------------------------------------------------------------------- property

_text = st.text(max_size=20)
_json_keys = st.sampled_from(["refusal", "annotations", "audio", "custom"])
_extra = st.dictionaries(_json_keys, st.one_of(st.none(), _text, st.integers()), max_size=2)
_text_part = st.builds(lambda t: {"type": "text", "text": t}, _text)
_image_part = st.builds(
    lambda url, detail: {
        "type": "image_url",
        "image_url": ({"url": url} if detail is None else {"url": url, "detail": detail}),
    },
    st.sampled_from(["https://e.com/a.png", f"data:image/png;base64,{PNG}", "data:x"]),
    st.one_of(st.none(), st.sampled_from(["low", "high"])),
)
_content = st.one_of(st.just(None), _text, st.lists(st.one_of(_text_part, _image_part), max_size=3))
_call = st.builds(
    lambda i, name, args, typed: {
        "id": i,
        **({"type": "function"} if typed else {}),
        "function": {"name": name, "arguments": args},
    },
    st.text(min_size=1, max_size=8),
    st.text(min_size=1, max_size=8),
    st.one_of(_text, st.just('{"a": 1}')),
    st.booleans(),
)


@st.composite
def _message(draw: st.DrawFn) -> dict[str, Any]:
    role = draw(st.sampled_from(["system", "developer", "user", "assistant", "tool"]))
    message: dict[str, Any] = {"role": role}
    if draw(st.booleans()) or role != "assistant":
        message["content"] = draw(_content)
    if role == "assistant":
        calls = draw(st.one_of(st.none(), st.lists(_call, max_size=3)))
        if calls is not None or draw(st.booleans()):
            message["tool_calls"] = calls
    if role == "tool" and draw(st.booleans()):
        message["tool_call_id"] = draw(_text)
    if draw(st.booleans()):
        message["name"] = draw(_text)
    message.update({k: v for k, v in draw(_extra).items() if k not in message})
    return message


@given(st.lists(_message(), max_size=6))
def test_any_accepted_conversation_round_trips_exactly(data: list[dict[str, Any]]) -> None:
    assert messages_to_openai(messages_from_openai(data)) == data
