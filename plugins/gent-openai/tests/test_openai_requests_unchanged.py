"""gent-openai writes its requests with the shared message writer (gent-natural's) and
gent-prompt's transcript prompt (issue 18, §4): the bodies it sends are those its own writer
and transcript sent before.

``requests_before_the_shared_writer.json`` holds, for each conversation below, what
``gent_openai/render.py`` (removed after commit 2dc9c2b) returned: ``completion_prompt`` and
``chat_messages`` with and without images.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gent_openai.model import OpenAIModel

from gent_core.messages import ImagePart, Message, MessageToolCall, TextPart
from gent_core.model import ModelRequest

BEFORE = json.loads(
    (Path(__file__).parent / "requests_before_the_shared_writer.json").read_text("utf-8")
)

PNG = ImagePart(b"\x89PNG\r\n", "image/png")
CALC = MessageToolCall("call_1", "calculator", '{"expression": "17*23"}')
CLOCK = MessageToolCall("call_2", "current_time", "{}")
CONVERSATIONS: dict[str, list[Message]] = {
    "plain": [
        Message.system("You are helpful."),
        Message.user("What is 17 * 23?"),
        Message.assistant("It is 391."),
        Message.user("  And 2 + 2?  "),
    ],
    "native_tools": [
        Message.system("Use tools."),
        Message.user("Compute and tell the time."),
        Message.assistant(tool_calls=[CALC, CLOCK]),
        Message.tool_result("call_1", "391", name="calculator"),
        Message.tool_result("call_2", "clock broken", is_error=True),
        Message.assistant("Let me check again.", tool_calls=[CLOCK]),
        Message.tool_result("call_2", "12:00", name="current_time"),
        Message.assistant("391, at 12:00."),
    ],
    "images_and_parts": [
        Message.system(""),
        Message.user([TextPart("What is this?"), PNG]),
        Message.user([PNG]),
        Message.assistant([TextPart("A "), TextPart("logo.")]),
        Message.user(""),
        Message("tool", (TextPart("seen"), PNG), tool_call_id="call_9", name="viewer"),
    ],
}


def body(messages: list[Message], **options: Any) -> dict[str, Any]:
    model = OpenAIModel(base_url="http://127.0.0.1:9/v1", model="m", **options)
    return model.request_body(ModelRequest(messages), stream=False)


@pytest.mark.parametrize("name", sorted(CONVERSATIONS))
def test_the_completions_prompt_is_the_one_sent_before(name: str) -> None:
    sent = body(CONVERSATIONS[name], api="completions")
    assert sent["prompt"] == BEFORE[name]["prompt"]
    assert sent["stop"] == ["\nUser:"]


@pytest.mark.parametrize("name", sorted(CONVERSATIONS))
@pytest.mark.parametrize("images", [True, False])
def test_the_chat_messages_are_the_ones_sent_before(name: str, images: bool) -> None:
    sent = body(CONVERSATIONS[name], api="chat", supports_images=images)
    assert sent["messages"] == BEFORE[name]["chat_images" if images else "chat_no_images"]
