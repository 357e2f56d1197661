"""Read conversations in the OpenAI chat format, exactly.

:func:`messages_from_openai` turns OpenAI chat messages (dicts as the chat-completions API
takes and returns them) into :class:`~gent_core.messages.Message` objects; gent's writer,
:func:`~gent_natural.openai_writer.messages_to_openai`, writes them back. The round trip is
exact: for every message this module accepts,
``messages_to_openai(messages_from_openai(data)) == data``.

What is read:

* ``role``: ``system``, ``developer`` (read as ``system``), ``user``, ``assistant``, ``tool``;
* ``content``: a string, ``null``, absent, or a list of ``{"type": "text", "text": ...}`` and
  ``{"type": "image_url", "image_url": {"url": ..., "detail": ...}}`` parts (``data:`` URLs
  are decoded into image bytes);
* ``tool_calls`` of assistant messages: ``{"id", "type": "function", "function": {"name",
  "arguments"}}`` with the arguments as a JSON string (kept exactly as written);
* ``tool_call_id`` of tool messages, and ``name``;
* ``is_error`` (``true``) on tool messages: gent's flag for a failed call (not part of the
  OpenAI format; written only when set);
* any other key, kept in :attr:`~gent_core.messages.Message.metadata` and written back.

How the source wrote things that have several spellings (``content`` absent or a list
holding a single text, role ``developer``, ``tool_calls: []``) is remembered under the
metadata key :data:`gent_natural.OPENAI_FORM_KEY`, which the writer honours. Anything
else gives an :class:`OpenAIMessageError` naming the message, the field and what is accepted.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable, Mapping
from typing import Any

from gent_core.errors import GentError
from gent_core.messages import ContentPart, ImagePart, Message, MessageToolCall, Role, TextPart
from gent_natural.openai_writer import OPENAI_FORM_KEY

__all__ = [
    "OpenAIMessageError",
    "message_from_openai",
    "messages_from_openai",
]

_ROLES: dict[str, Role] = {
    "system": "system",
    "developer": "system",
    "user": "user",
    "assistant": "assistant",
    "tool": "tool",
}
_MODELED = frozenset({"role", "content", "tool_calls", "tool_call_id", "name"})
_CALL_KEYS = frozenset({"id", "type", "function"})
_FUNCTION_KEYS = frozenset({"name", "arguments"})
_CALL_FORM = (
    'Accepted: "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": '
    '"<tool name>", "arguments": "<the arguments as a JSON string>"}}].'
)
_CONTENT_FORM = (
    'Accepted content: a string, null, or a list of {"type": "text", "text": "..."} and '
    '{"type": "image_url", "image_url": {"url": "...", "detail": "auto"}} parts.'
)


class OpenAIMessageError(GentError):
    """An OpenAI chat message that cannot be read.

    Attributes:
        index: The message's 0-based position in the conversation.
        field: The offending field (``"tool_calls[0].function.arguments"``), or ``""`` for
            the message as a whole.
    """

    def __init__(self, index: int, field: str, problem: str, *, accepted: str = "") -> None:
        self.index = index
        self.field = field
        where = f"message {index}" + (f", field '{field}'" if field else "")
        super().__init__(f"{where}: {problem}", hint=accepted or None)


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    for type_, name in names.items():
        if isinstance(value, type_):
            return name
    if isinstance(value, (int, float)):
        return "a number"
    return type(value).__name__


def _image_from_url(url: str, detail: str | None) -> ImagePart:
    if url.startswith("data:") and ";base64," in url:
        header, _, payload = url.partition(";base64,")
        media_type = header[len("data:") :] or "application/octet-stream"
        try:
            data = base64.b64decode(payload, validate=True)
        except (binascii.Error, ValueError):
            return ImagePart(b"", media_type, url=url, detail=detail)
        image = ImagePart(data, media_type, detail=detail)
        return image if image.data_url() == url else ImagePart(data, media_type, url, detail)
    import mimetypes

    guessed = mimetypes.guess_type(url.split("?", 1)[0])[0]
    return ImagePart(b"", guessed or "application/octet-stream", url=url, detail=detail)


def _part(item: Any, index: int, field: str) -> ContentPart:
    """One content part of message ``index`` (``field`` names it in errors)."""
    if not isinstance(item, Mapping):
        raise OpenAIMessageError(
            index,
            field,
            f"a content part must be an object, got {_kind(item)}",
            accepted=_CONTENT_FORM,
        )
    kind = item.get("type")
    if kind == "text":
        return _text_part(item, index, field)
    if kind == "image_url":
        return _image_part(item, index, field)
    raise OpenAIMessageError(
        index,
        f"{field}.type",
        f"unsupported content part type {kind!r}"
        if isinstance(kind, str)
        else f'must be "text" or "image_url", got {_kind(kind)}',
        accepted=_CONTENT_FORM,
    )


def _text_part(item: Mapping[str, Any], index: int, field: str) -> TextPart:
    """A ``{"type": "text", "text": ...}`` part."""
    text = item.get("text")
    if not isinstance(text, str):
        raise OpenAIMessageError(
            index, f"{field}.text", f"must be a string, got {_kind(text)}", accepted=_CONTENT_FORM
        )
    extra = sorted(set(item) - {"type", "text"})
    if extra:
        raise OpenAIMessageError(
            index,
            field,
            f"a text part has unsupported keys: {', '.join(extra)}",
            accepted=_CONTENT_FORM,
        )
    return TextPart(text)


def _image_part(item: Mapping[str, Any], index: int, field: str) -> ImagePart:
    """A ``{"type": "image_url", "image_url": {"url": ..., "detail": ...}}`` part."""
    image = item.get("image_url")
    extra = sorted(set(item) - {"type", "image_url"})
    if extra:
        raise OpenAIMessageError(
            index,
            field,
            f"an image part has unsupported keys: {', '.join(extra)}",
            accepted=_CONTENT_FORM,
        )
    if not isinstance(image, Mapping) or not isinstance(image.get("url"), str):
        raise OpenAIMessageError(
            index,
            f"{field}.image_url",
            f'must be an object with a "url" string, got {_kind(image)}',
            accepted=_CONTENT_FORM,
        )
    detail = image.get("detail")
    if (detail is not None and not isinstance(detail, str)) or set(image) - {"url", "detail"}:
        raise OpenAIMessageError(
            index,
            f"{field}.image_url",
            'only "url" and "detail" (a string) are supported',
            accepted=_CONTENT_FORM,
        )
    return _image_from_url(image["url"], detail)


def _content(data: Mapping[str, Any], index: int, form: dict[str, str]) -> tuple[ContentPart, ...]:
    if "content" not in data:
        form["content"] = "absent"
        return ()
    content = data["content"]
    if content is None:
        return ()
    if isinstance(content, str):
        return (TextPart(content),)
    if isinstance(content, list):
        parts = tuple(_part(item, index, f"content[{n}]") for n, item in enumerate(content))
        if not parts or (len(parts) == 1 and isinstance(parts[0], TextPart)):
            form["content"] = "parts"  # a string or null would be written otherwise
        return parts
    raise OpenAIMessageError(
        index,
        "content",
        f"must be a string, null or a list of parts, got {_kind(content)}",
        accepted=_CONTENT_FORM,
    )


def _tool_call(item: Any, index: int, field: str) -> MessageToolCall:
    if not isinstance(item, Mapping):
        raise OpenAIMessageError(
            index, field, f"a tool call must be an object, got {_kind(item)}", accepted=_CALL_FORM
        )
    call_id = item.get("id")
    if not isinstance(call_id, str):
        raise OpenAIMessageError(
            index, f"{field}.id", f"must be a string, got {_kind(call_id)}", accepted=_CALL_FORM
        )
    kind = item.get("type", "function")
    if kind != "function":
        raise OpenAIMessageError(
            index,
            f"{field}.type",
            f'only "function" calls are supported, got {kind!r}',
            accepted=_CALL_FORM,
        )
    function = item.get("function")
    if not isinstance(function, Mapping):
        raise OpenAIMessageError(
            index,
            f"{field}.function",
            f"must be an object, got {_kind(function)}",
            accepted=_CALL_FORM,
        )
    name = function.get("name")
    if not isinstance(name, str) or not name:
        raise OpenAIMessageError(
            index,
            f"{field}.function.name",
            f"must be a non-empty string, got {_kind(name)}",
            accepted=_CALL_FORM,
        )
    arguments = function.get("arguments")
    if not isinstance(arguments, str):
        raise OpenAIMessageError(
            index,
            f"{field}.function.arguments",
            f"must be a string holding the arguments as JSON, got {_kind(arguments)}",
            accepted=_CALL_FORM,
        )
    metadata: dict[str, Any] = {key: value for key, value in item.items() if key not in _CALL_KEYS}
    extra = {key: value for key, value in function.items() if key not in _FUNCTION_KEYS}
    if extra:
        metadata["function"] = extra
    if "type" not in item:
        metadata[OPENAI_FORM_KEY] = {"type": "absent"}
    return MessageToolCall(call_id, name, arguments, metadata)


def _tool_calls(
    data: Mapping[str, Any], role: str, index: int, form: dict[str, str]
) -> tuple[MessageToolCall, ...]:
    if "tool_calls" not in data:
        return ()
    calls = data["tool_calls"]
    if calls is None or calls == []:
        form["tool_calls"] = "null" if calls is None else "empty"
        return ()
    if role != "assistant":
        raise OpenAIMessageError(
            index, "tool_calls", f"only assistant messages have tool calls, not {role} ones"
        )
    if not isinstance(calls, list):
        raise OpenAIMessageError(
            index, "tool_calls", f"must be a list, got {_kind(calls)}", accepted=_CALL_FORM
        )
    return tuple(_tool_call(item, index, f"tool_calls[{n}]") for n, item in enumerate(calls))


def _optional_string(data: Mapping[str, Any], key: str, index: int) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise OpenAIMessageError(index, key, f"must be a string, got {_kind(value)}")
    return value


def message_from_openai(data: Any, index: int = 0) -> Message:
    """Read one OpenAI chat message.

    Args:
        data: The message (a mapping).
        index: Its position in the conversation, for error messages.

    Raises:
        OpenAIMessageError: Naming the message, the field and what is accepted.
    """
    if not isinstance(data, Mapping):
        raise OpenAIMessageError(
            index, "", f'a message must be an object with a "role", got {_kind(data)}'
        )
    raw_role = data.get("role")
    if raw_role not in _ROLES:
        accepted = "Accepted roles: system, developer, user, assistant, tool."
        problem = (
            "the legacy role 'function' is not supported (use tool_calls and role 'tool')"
            if raw_role == "function"
            else f"unknown role {raw_role!r}"
            if isinstance(raw_role, str)
            else f"missing or not a string (got {_kind(raw_role)})"
        )
        raise OpenAIMessageError(index, "role", problem, accepted=accepted)
    role = _ROLES[raw_role]
    form: dict[str, str] = {"role": raw_role} if raw_role != role else {}
    parts = _content(data, index, form)
    calls = _tool_calls(data, role, index, form)
    tool_call_id = _optional_string(data, "tool_call_id", index)
    if tool_call_id is not None and role != "tool":
        raise OpenAIMessageError(
            index, "tool_call_id", f"only tool messages answer a tool call, not {role} ones"
        )
    metadata: dict[str, Any] = {key: value for key, value in data.items() if key not in _MODELED}
    is_error = role == "tool" and metadata.get("is_error") is True
    if is_error:
        del metadata["is_error"]
    if form:
        metadata[OPENAI_FORM_KEY] = form
    return Message(
        role,
        parts,
        calls,
        tool_call_id=tool_call_id,
        name=_optional_string(data, "name", index),
        is_error=is_error,
        metadata=metadata,
    )


def messages_from_openai(data: Iterable[Any]) -> list[Message]:
    """Read a conversation of OpenAI chat messages (see :func:`message_from_openai`).

    Raises:
        OpenAIMessageError: For the first message that cannot be read.
    """
    if isinstance(data, (str, bytes, Mapping)):
        raise OpenAIMessageError(0, "", f"expected a list of messages, got {_kind(data)}")
    return [message_from_openai(item, index) for index, item in enumerate(data)]
