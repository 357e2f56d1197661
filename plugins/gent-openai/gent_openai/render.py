"""Turning gent messages into OpenAI request bodies (chat messages or one prompt)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gent_core.messages import ImagePart, Message, TextPart

__all__ = ["IMAGE_OMITTED", "TRANSCRIPT_STOP", "chat_messages", "completion_prompt"]

IMAGE_OMITTED = "[image omitted: this model does not accept images]"
TRANSCRIPT_STOP = "\nUser:"
"""Stop sequence of completion prompts, so a base model does not write the user's turn."""


def _content(message: Message, images: bool) -> str | list[dict[str, Any]]:
    if not message.images:
        return message.text
    if not images:
        texts = [
            part.text if isinstance(part, TextPart) else IMAGE_OMITTED for part in message.parts
        ]
        return "".join(texts)
    parts: list[dict[str, Any]] = []
    for part in message.parts:
        if isinstance(part, ImagePart):
            parts.append({"type": "image_url", "image_url": {"url": part.data_url()}})
        elif part.text:
            parts.append({"type": "text", "text": part.text})
    return parts


def _chat_message(message: Message, images: bool) -> dict[str, Any]:
    written: dict[str, Any] = {"role": message.role, "content": _content(message, images)}
    if message.tool_calls:
        written["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": call.arguments},
            }
            for call in message.tool_calls
        ]
        if not message.text and not message.images:
            written["content"] = None
    if message.role == "tool":
        written["tool_call_id"] = message.tool_call_id
        if message.name is not None:
            written["name"] = message.name
    return written


def chat_messages(messages: Sequence[Message], *, images: bool) -> list[dict[str, Any]]:
    """Return chat-completions messages; images become ``image_url`` parts with data URLs
    when ``images`` is true, else a short text saying they were left out. Native tool calls
    (``tool_calls``) and tool results (``role: tool`` with ``tool_call_id``) are kept.
    """
    return [_chat_message(message, images) for message in messages]


def _transcript_text(message: Message) -> str:
    """A message's text for a transcript prompt, its native tool calls written out."""
    text = message.text.strip()
    if message.images:
        text = f"{text}\n{IMAGE_OMITTED}".strip()
    calls = [f"[calls {call.name} with {call.arguments}]" for call in message.tool_calls]
    return "\n".join(part for part in [text, *calls] if part)


_LABELS = {"user": "User", "assistant": "Assistant"}


def completion_prompt(messages: Sequence[Message]) -> str:
    """Render messages as one transcript prompt ending with ``Assistant:``.

    The prompt reads::

    <system text>

    User: ...

    Assistant: ...

    Assistant:
    """
    blocks = []
    for message in messages:
        text = _transcript_text(message)
        if message.role == "system":
            blocks.append(text)
        elif message.role == "tool":
            status = " (error)" if message.is_error else ""
            blocks.append(f"Tool result of {message.name or 'a tool'}{status}: {text}")
        else:
            blocks.append(f"{_LABELS[message.role]}: {text}")
    blocks.append("Assistant:")
    return "\n\n".join(block for block in blocks if block)
