"""gent-natural's OpenAI chat message writer: the exact form (files, conversions) and the
request form (what gent-openai sends a chat-completions server), from one implementation."""

from __future__ import annotations

from typing import Any

from gent_natural import OPENAI_FORM_KEY, message_to_openai, messages_to_openai

from gent_core.messages import IMAGE_OMITTED, ImagePart, Message, MessageToolCall, TextPart

PNG = ImagePart(b"\x89PNG", "image/png", detail="low")


def test_messages_built_in_code_write_the_usual_form() -> None:
    call = MessageToolCall.of("call_1", "search", {"q": "x"})
    written = messages_to_openai(
        [
            Message.assistant(tool_calls=[call]),
            Message.tool_result("call_1", "found", name="search"),
            Message.user([TextPart("a"), TextPart("b")]),
        ]
    )
    assert written == [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "search", "arguments": '{"q": "x"}'},
                }
            ],
        },
        {"role": "tool", "content": "found", "name": "search", "tool_call_id": "call_1"},
        {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
    ]


def test_the_request_form_holds_only_the_fields_of_the_format() -> None:
    call = MessageToolCall("c", "search", "{}", {"index": 0, "function": {"strict": True}})
    history = [
        Message("user", (TextPart("hi"),), name="ann", metadata={"refusal": None, "seen": 1}),
        Message("assistant", (), (call,), metadata={OPENAI_FORM_KEY: {"tool_calls": "empty"}}),
        Message.tool_result("c", "failed", name="search", is_error=True),
    ]
    exact = messages_to_openai(history)
    assert exact[0]["refusal"] is None and exact[0]["seen"] == 1
    assert exact[1]["tool_calls"][0]["index"] == 0
    assert exact[2]["is_error"] is True
    assert messages_to_openai(history, request=True) == [
        {"role": "user", "content": "hi", "name": "ann"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c", "type": "function", "function": {"name": "search", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "content": "failed", "name": "search", "tool_call_id": "c"},
    ]


def test_the_request_form_writes_text_as_one_string_and_null_only_beside_calls() -> None:
    nothing = Message("user", ())
    assert message_to_openai(nothing) == {"role": "user", "content": None}
    assert message_to_openai(nothing, request=True) == {"role": "user", "content": ""}
    parts = Message.assistant([TextPart("A "), TextPart("logo.")])
    assert message_to_openai(parts, request=True)["content"] == "A logo."
    assert isinstance(message_to_openai(parts)["content"], list)
    call = MessageToolCall("c", "f", "{}")
    said = Message.assistant("checking", tool_calls=[call])
    assert message_to_openai(said, request=True)["content"] == "checking"
    silent = Message.assistant("", tool_calls=[call])
    assert message_to_openai(silent, request=True)["content"] is None
    assert message_to_openai(silent)["content"] == ""  # exact: as the message holds it


def test_images_are_sent_with_their_detail_or_stand_as_a_note() -> None:
    message = Message.user([TextPart(""), TextPart("What is this?"), PNG])
    image: dict[str, Any] = {
        "type": "image_url",
        "image_url": {"url": PNG.data_url(), "detail": "low"},
    }
    sent = message_to_openai(message, request=True)
    assert sent["content"] == [{"type": "text", "text": "What is this?"}, image]
    assert message_to_openai(message, request=True, images=False)["content"] == (
        f"What is this?{IMAGE_OMITTED}"
    )
    exact = message_to_openai(message, images=False)["content"]
    assert exact[-1] == {"type": "text", "text": IMAGE_OMITTED}
    assert message_to_openai(message)["content"][-1] == image
