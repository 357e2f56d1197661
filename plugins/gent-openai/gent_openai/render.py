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


def chat_messages(messages: Sequence[Message], *, images: bool) -> list[dict[str, Any]]:
    """Return chat-completions messages; images become ``image_url`` parts with data URLs
    when ``images`` is true, else a short text saying they were left out.
    """
    return [{"role": m.role, "content": _content(m, images)} for m in messages]


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
        text = message.text.strip()
        if message.images:
            text = f"{text}\n{IMAGE_OMITTED}".strip()
        if message.role == "system":
            blocks.append(text)
        else:
            blocks.append(f"{'User' if message.role == 'user' else 'Assistant'}: {text}")
    blocks.append("Assistant:")
    return "\n\n".join(block for block in blocks if block)
