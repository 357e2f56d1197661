"""Write conversations in the OpenAI chat format: one writer for files and for requests.

:func:`messages_to_openai` writes :class:`~gent_core.messages.Message` objects as OpenAI chat
messages (dicts as the chat-completions API takes them), in one of two forms:

* **exact** (the default), for files and conversions: everything a message holds is written,
  its :attr:`~gent_core.messages.Message.metadata` keys and ``is_error`` (gent's flag for a
  failed call, not part of the OpenAI format) included, and in the spelling the source used
  (remembered under :data:`OPENAI_FORM_KEY`), so that a conversation read from OpenAI
  messages by :func:`gent_natural.messages_from_openai` (the reader beside this module) is
  written back exactly as it was;
* **request** (``request=True``), for a chat-completions server: only the fields of the
  format (no metadata keys, no ``is_error``), content as one string unless images are sent,
  ``null`` only beside tool calls.

With ``images=False`` (a model that does not accept images) each image reads
:data:`~gent_core.messages.IMAGE_OMITTED` instead.

Model back ends that talk to chat-completions servers (``gent-openai``, the native baseline of
``gent-bfcl``) depend on gent-natural for this writer: one writer for every place gent writes
the format.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gent_core.messages import (
    IMAGE_OMITTED,
    ContentPart,
    ImagePart,
    Message,
    MessageToolCall,
    TextPart,
)

__all__ = ["OPENAI_FORM_KEY", "message_to_openai", "messages_to_openai"]

OPENAI_FORM_KEY = "gent.openai"
"""Metadata key remembering how an OpenAI message spelled things that have several spellings
(``content`` absent or a list holding a single text, role ``developer``, ``tool_calls: []``),
so the exact form of :func:`message_to_openai` writes them the same way (a dict; absent for
the usual forms).
"""

_FUNCTION_KEYS = frozenset({"name", "arguments"})
_CALL_KEYS = frozenset({"id", "type", "function"})


def _part_to_openai(part: ContentPart) -> dict[str, Any]:
    if isinstance(part, TextPart):
        return {"type": "text", "text": part.text}
    image: dict[str, Any] = {"url": part.data_url()}
    if part.detail is not None:
        image["detail"] = part.detail
    return {"type": "image_url", "image_url": image}


def _call_to_openai(call: MessageToolCall, *, request: bool) -> dict[str, Any]:
    function: dict[str, Any] = {"name": call.name, "arguments": call.arguments}
    written: dict[str, Any] = {"id": call.id, "type": "function", "function": function}
    if request:
        return written
    metadata = dict(call.metadata)
    extra = metadata.pop("function", None)
    if isinstance(extra, Mapping):
        function.update({k: v for k, v in extra.items() if k not in _FUNCTION_KEYS})
    form = metadata.pop(OPENAI_FORM_KEY, None)
    if isinstance(form, Mapping) and form.get("type") == "absent":
        del written["type"]
    written.update({k: v for k, v in metadata.items() if k not in _CALL_KEYS})
    return written


_ABSENT = object()


def _exact_content(parts: tuple[ContentPart, ...], form: Mapping[str, Any]) -> Any:
    """A string for a single text part, ``null`` for none, a list of parts otherwise, unless
    the source spelled it another way (``form``).
    """
    content_form = form.get("content")
    if content_form == "parts":
        return [_part_to_openai(part) for part in parts]
    if not parts:
        return _ABSENT if content_form == "absent" else None
    if len(parts) == 1 and isinstance(parts[0], TextPart):
        return parts[0].text
    return [_part_to_openai(part) for part in parts]


def _request_content(message: Message, parts: tuple[ContentPart, ...]) -> Any:
    """The text as one string; a list of parts (empty texts left out) when images are sent;
    ``null`` for an assistant message with tool calls and nothing else.
    """
    if any(isinstance(part, ImagePart) for part in parts):
        return [_part_to_openai(part) for part in parts if isinstance(part, ImagePart) or part.text]
    text = "".join(part.text for part in parts if isinstance(part, TextPart))
    return None if message.tool_calls and not text else text


def message_to_openai(
    message: Message, *, request: bool = False, images: bool = True
) -> dict[str, Any]:
    """Write one message as an OpenAI chat message.

    Args:
        message: The message.
        request: Write the form a chat-completions server takes (see the module
            documentation) instead of the exact one.
        images: Write image parts as ``image_url`` parts (with data URLs for images held as
            bytes); when false, each reads :data:`~gent_core.messages.IMAGE_OMITTED`.
    """
    metadata = dict(message.metadata)
    form = metadata.pop(OPENAI_FORM_KEY, None)
    form = form if isinstance(form, Mapping) else {}
    role: str = message.role
    if message.role == "system" and form.get("role") == "developer":
        role = "developer"
    parts = message.parts
    if not images:
        parts = tuple(
            TextPart(IMAGE_OMITTED) if isinstance(part, ImagePart) else part for part in parts
        )
    written: dict[str, Any] = {"role": role}
    content = _request_content(message, parts) if request else _exact_content(parts, form)
    if content is not _ABSENT:
        written["content"] = content
    if message.name is not None:
        written["name"] = message.name
    if message.tool_calls:
        written["tool_calls"] = [
            _call_to_openai(call, request=request) for call in message.tool_calls
        ]
    elif not request and form.get("tool_calls") in ("null", "empty"):
        written["tool_calls"] = None if form["tool_calls"] == "null" else []
    if message.tool_call_id is not None:
        written["tool_call_id"] = message.tool_call_id
    if request:
        return written
    if message.is_error:
        written["is_error"] = True
    for key, value in metadata.items():
        written.setdefault(key, value)
    return written


def messages_to_openai(
    messages: Sequence[Message], *, request: bool = False, images: bool = True
) -> list[dict[str, Any]]:
    """Write a conversation as OpenAI chat messages (see :func:`message_to_openai`)."""
    return [message_to_openai(message, request=request, images=images) for message in messages]
