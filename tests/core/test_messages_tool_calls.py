"""Messages holding native tool calls and tool results."""

from __future__ import annotations

import copy
import pickle

import pytest

from gent_core.messages import ImagePart, Message, MessageToolCall, TextPart


def test_assistant_message_with_tool_calls() -> None:
    call = MessageToolCall.of("call_1", "get_weather", {"city": "Paris"})
    message = Message.assistant("Let me check.", tool_calls=[call])
    assert message.role == "assistant"
    assert message.text == "Let me check."
    assert message.tool_calls == (call,)
    assert call.arguments == '{"city": "Paris"}'
    assert call.parsed_arguments() == {"city": "Paris"}


def test_assistant_message_with_only_calls_has_no_parts() -> None:
    message = Message.assistant(tool_calls=[MessageToolCall.of("c", "now")])
    assert message.parts == ()
    assert message.tool_calls[0].arguments == "{}"


def test_existing_constructors_are_unchanged() -> None:
    assert Message.assistant("") == Message("assistant", (TextPart(""),))
    assert Message.user("hi") == Message("user", (TextPart("hi"),))
    assert Message.of("system", [TextPart("a")]).parts == (TextPart("a"),)
    assert Message.user("hi").metadata == {}
    assert hash(Message.user("hi")) == hash(Message.user("hi"))


def test_tool_result_message() -> None:
    result = Message.tool_result("call_1", '{"temp": 21}', name="get_weather", is_error=False)
    assert result.role == "tool"
    assert result.tool_call_id == "call_1"
    assert result.name == "get_weather"
    assert result.text == '{"temp": 21}'
    failed = Message.tool_result("call_2", "boom", is_error=True)
    assert failed.is_error


def test_tool_calls_only_on_assistant_and_call_ids_only_on_tool_messages() -> None:
    with pytest.raises(ValueError, match="only assistant messages have tool calls"):
        Message("user", (), (MessageToolCall("c", "x"),))
    with pytest.raises(ValueError, match="only tool messages answer a tool call"):
        Message("assistant", (), tool_call_id="c")


def test_metadata_is_read_only_and_kept_in_equality_but_not_hash() -> None:
    message = Message("user", (TextPart("hi"),), metadata={"source": "chat"})
    assert message.metadata["source"] == "chat"
    with pytest.raises(TypeError):
        message.metadata["source"] = "other"  # type: ignore[index]
    assert message != Message.user("hi")
    assert hash(message) == hash(Message.user("hi"))


def test_messages_pickle_and_deepcopy() -> None:
    call = MessageToolCall("c", "x", "{}", {"index": 0})
    message = Message("assistant", (TextPart("a"), ImagePart(b"png")), (call,), metadata={"k": [1]})
    assert pickle.loads(pickle.dumps(message)) == message
    assert copy.deepcopy(message) == message


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [("{not json", "not valid JSON"), ("[1, 2]", "must be a JSON object, not list")],
)
def test_parsed_arguments_explain_bad_arguments(arguments: str, problem: str) -> None:
    call = MessageToolCall("call_9", "search", arguments)
    with pytest.raises(ValueError, match=problem) as caught:
        call.parsed_arguments()
    assert "call_9" in str(caught.value)


def test_blank_arguments_mean_no_arguments() -> None:
    assert MessageToolCall("c", "now", "").parsed_arguments() == {}


def test_image_url_is_kept() -> None:
    image = ImagePart(b"", "image/jpeg", url="https://example.com/cat.jpg", detail="low")
    assert image.data_url() == "https://example.com/cat.jpg"
    assert ImagePart(b"\x89PNG").data_url() == "data:image/png;base64,iVBORw=="
