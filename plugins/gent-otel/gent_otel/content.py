"""Sizes and content of what a span describes, as attribute values.

Sizes are always recorded (``gent.*.chars``: characters, never the text). Content is recorded
only when capture is on (:func:`gent_otel.settings.capture_content`), as the JSON strings the
GenAI semantic conventions define (``gen_ai.input.messages``, ``gen_ai.output.messages``,
``gen_ai.tool.call.arguments``, ``gen_ai.tool.call.result``), every text passed through the
run's redactor (``ExecutionContext.redact``) first. The task and the answer are the user's own
text and are recorded as written (gent's redaction rule: they are never altered).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from gent_core.messages import ImagePart, Message, TextPart

__all__ = [
    "answer_messages",
    "chars",
    "input_messages",
    "output_messages",
    "task_messages",
    "text_of_value",
]

Redact = Callable[[str], str]


def text_of_value(value: Any) -> str:
    """A value as the text a model reads of it: a string as it is, anything else as JSON
    (non-JSON values written with ``str``).
    """
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError, RecursionError):
        return str(value)


def chars(value: Any) -> int:
    """The size of a value in characters (:func:`text_of_value`)."""
    return len(text_of_value(value))


def _dump(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


def _parts(message: Message, redact: Redact) -> list[dict[str, Any]]:
    parts: list[dict[str, Any]] = []
    for part in message.parts:
        if isinstance(part, TextPart):
            parts.append({"type": "text", "content": redact(part.text)})
        elif isinstance(part, ImagePart):  # the image itself is not recorded
            parts.append({"type": "image", "mime_type": part.media_type, "bytes": len(part.data)})
    for call in message.tool_calls:
        parts.append(
            {
                "type": "tool_call",
                "id": call.id,
                "name": call.name,
                "arguments": redact(call.arguments),
            }
        )
    if message.role == "tool":
        return [
            {
                "type": "tool_call_response",
                "id": message.tool_call_id or "",
                "response": redact(message.text),
            }
        ]
    return parts


def input_messages(messages: Sequence[Message], redact: Redact) -> str:
    """``gen_ai.input.messages`` of a model call: every message in order, system first, its
    text redacted.
    """
    return _dump([{"role": m.role, "parts": _parts(m, redact)} for m in messages])


def output_messages(text: str, finish_reason: str | None, redact: Redact) -> str:
    """``gen_ai.output.messages`` of a model call: the model's output, redacted."""
    message = {
        "role": "assistant",
        "parts": [{"type": "text", "content": redact(text)}],
        "finish_reason": finish_reason or "",
    }
    return _dump([message])


def task_messages(task: str) -> str:
    """``gen_ai.input.messages`` of a run: the task, as the user wrote it."""
    return _dump([{"role": "user", "parts": [{"type": "text", "content": task}]}])


def answer_messages(answer: Any) -> str:
    """``gen_ai.output.messages`` of a run that answered: the answer, as given."""
    message = {
        "role": "assistant",
        "parts": [{"type": "text", "content": text_of_value(answer)}],
        "finish_reason": "stop",
    }
    return _dump([message])
