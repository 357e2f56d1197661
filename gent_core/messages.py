"""Chat messages and their content parts (text and images), tool calls and tool results.

A conversation is a list of :class:`Message`. Besides plain text messages it can hold what
native function calling produces:

* an **assistant message with tool calls** (:attr:`Message.tool_calls`, each a
  :class:`MessageToolCall` with an id, a tool name and its arguments as JSON text);
* a **tool-result message** (role ``"tool"``) answering one call: :attr:`Message.tool_call_id`
  links it to the call, :attr:`Message.name` names the tool, :attr:`Message.is_error` says
  whether the call failed, and the parts hold the result.

Every message carries :attr:`~Message.metadata`: keys a source format has that gent does not
model (kept so conversions round-trip exactly) and anything an application wants to attach.
gent-natural writes them in the OpenAI chat format and reads them back
(``gent_natural.messages_to_openai`` and ``messages_from_openai``).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

__all__ = [
    "IMAGE_OMITTED",
    "ContentPart",
    "ImagePart",
    "Message",
    "MessageToolCall",
    "Role",
    "TextPart",
    "text_of",
]

Role = Literal["system", "user", "assistant", "tool"]
"""Who wrote a message."""

IMAGE_OMITTED = "[image omitted: this model does not accept images]"
"""What a model that does not accept images reads instead of an image (in chat messages
written without images, and in plain transcript prompts)."""

_EMPTY: Mapping[str, Any] = MappingProxyType({})


def _empty_metadata() -> Mapping[str, Any]:
    return _EMPTY


def _frozen(metadata: Mapping[str, Any]) -> Mapping[str, Any]:
    if isinstance(metadata, MappingProxyType):
        return metadata
    return MappingProxyType(dict(metadata)) if metadata else _EMPTY


@dataclass(frozen=True)
class TextPart:
    """A piece of text inside a message."""

    text: str


@dataclass(frozen=True)
class ImagePart:
    """An image inside a message or a tool result.

    Attributes:
        data: The encoded image bytes (PNG, JPEG...); empty when the image is only known by
            its :attr:`url`.
        media_type: The IANA media type, e.g. ``"image/png"``.
        url: The URL the image was given by (an ``https:`` URL, or a ``data:`` URL written
            differently from :meth:`data_url`), kept so the image is passed on unchanged;
            ``None`` for images given as bytes.
        detail: The resolution hint some APIs take (OpenAI's ``"low"``, ``"high"``,
            ``"auto"``), or ``None``.
    """

    data: bytes
    media_type: str = "image/png"
    url: str | None = None
    detail: str | None = None

    def data_url(self) -> str:
        """Return the image as OpenAI-style APIs accept it: :attr:`url` when the image was
        given by URL, else a ``data:`` URL holding the bytes.
        """
        if self.url is not None:
            return self.url
        return f"data:{self.media_type};base64,{base64.b64encode(self.data).decode('ascii')}"


ContentPart = TextPart | ImagePart
"""One part of a message's content: text or an image."""


def text_of(parts: Iterable[ContentPart]) -> str:
    """Concatenate the text parts of ``parts``, ignoring media."""
    return "".join(part.text for part in parts if isinstance(part, TextPart))


@dataclass(frozen=True)
class MessageToolCall:
    """One tool call inside an assistant message (native function calling).

    Attributes:
        id: The call's identifier; the tool-result message answering it has the same
            :attr:`Message.tool_call_id`.
        name: The tool's name.
        arguments: The arguments as JSON text, exactly as written (a provider may send text
            that is not valid JSON; it is kept as it is). See :meth:`parsed_arguments`.
        metadata: Keys of the source format that gent does not model.
    """

    id: str
    name: str
    arguments: str = "{}"
    metadata: Mapping[str, Any] = field(default_factory=_empty_metadata, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "metadata", _frozen(self.metadata))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.id, self.name, self.arguments, dict(self.metadata)))

    @classmethod
    def of(
        cls,
        id: str,
        name: str,
        arguments: Mapping[str, Any] | str | None = None,
        *,
        metadata: Mapping[str, Any] | None = None,
    ) -> MessageToolCall:
        """Build a call; a mapping of arguments is written as JSON text.

        Args:
            id: The call's identifier.
            name: The tool's name.
            arguments: A mapping (written with :func:`json.dumps`), JSON text, or ``None``
                for no arguments (``"{}"``).
            metadata: Extra keys to keep with the call.
        """
        if arguments is None:
            text = "{}"
        elif isinstance(arguments, str):
            text = arguments
        else:
            text = json.dumps(dict(arguments), ensure_ascii=False)
        return cls(id, name, text, metadata or _EMPTY)

    def parsed_arguments(self) -> dict[str, Any]:
        """Return the arguments as a dict (an empty text means no arguments).

        Raises:
            ValueError: When :attr:`arguments` is not a JSON object, saying what it is, or
                is beyond gent's bounds (:func:`gent_core._bounded.read_json`).
        """
        if not self.arguments.strip():
            return {}
        from gent_core._bounded import read_json
        from gent_core.errors import InputError, InputSyntaxError

        try:
            value = read_json(self.arguments, source="the arguments")
        except InputError as error:
            which = f"the arguments of tool call {self.id!r} ({self.name})"
            verb = " are" if isinstance(error, InputSyntaxError) else ":"
            raise ValueError(f"{which}{verb} {error.problem}") from None
        if not isinstance(value, dict):
            raise ValueError(
                f"the arguments of tool call {self.id!r} ({self.name}) must be a JSON object, "
                f"not {type(value).__name__}"
            )
        return value


@dataclass(frozen=True)
class Message:
    """One message of a conversation.

    Attributes:
        role: ``"system"``, ``"user"``, ``"assistant"`` or ``"tool"`` (a tool's result).
        parts: The content, in order: text and images.
        tool_calls: The tool calls of an assistant message (native function calling).
        tool_call_id: For a ``"tool"`` message, the id of the call it answers.
        name: For a ``"tool"`` message, the tool's name; for other roles, an optional
            participant name.
        is_error: For a ``"tool"`` message, whether the call failed.
        metadata: Keys of the source format that gent does not model (kept so conversions
            round-trip exactly), and anything an application attaches. Read-only.
    """

    role: Role
    parts: tuple[ContentPart, ...] = field(default_factory=tuple)
    tool_calls: tuple[MessageToolCall, ...] = ()
    tool_call_id: str | None = None
    name: str | None = None
    is_error: bool = False
    metadata: Mapping[str, Any] = field(default_factory=_empty_metadata, hash=False)

    def __post_init__(self) -> None:
        if self.tool_calls and self.role != "assistant":
            raise ValueError(f"only assistant messages have tool calls, not {self.role!r} ones")
        if self.tool_call_id is not None and self.role != "tool":
            raise ValueError(f"only tool messages answer a tool call, not {self.role!r} ones")
        object.__setattr__(self, "parts", tuple(self.parts))
        object.__setattr__(self, "tool_calls", tuple(self.tool_calls))
        object.__setattr__(self, "metadata", _frozen(self.metadata))

    def __reduce__(self) -> tuple[Any, ...]:
        fields = (self.role, self.parts, self.tool_calls, self.tool_call_id, self.name)
        return (type(self), (*fields, self.is_error, dict(self.metadata)))

    @classmethod
    def of(cls, role: Role, content: str | Sequence[ContentPart]) -> Message:
        """Build a message from a plain string or a sequence of parts."""
        if isinstance(content, str):
            return cls(role, (TextPart(content),))
        return cls(role, tuple(content))

    @classmethod
    def system(cls, content: str | Sequence[ContentPart]) -> Message:
        """Build a system message."""
        return cls.of("system", content)

    @classmethod
    def user(cls, content: str | Sequence[ContentPart]) -> Message:
        """Build a user message."""
        return cls.of("user", content)

    @classmethod
    def assistant(
        cls,
        content: str | Sequence[ContentPart] = (),
        *,
        tool_calls: Sequence[MessageToolCall] = (),
    ) -> Message:
        """Build an assistant message, optionally with tool calls (then content may be
        left out).
        """
        message = cls.of("assistant", content)
        return cls("assistant", message.parts, tuple(tool_calls)) if tool_calls else message

    @classmethod
    def tool_result(
        cls,
        tool_call_id: str,
        content: str | Sequence[ContentPart],
        *,
        name: str | None = None,
        is_error: bool = False,
    ) -> Message:
        """Build the ``"tool"`` message answering call ``tool_call_id``."""
        parts = (TextPart(content),) if isinstance(content, str) else tuple(content)
        return cls("tool", parts, tool_call_id=tool_call_id, name=name, is_error=is_error)

    @property
    def text(self) -> str:
        """The message's text parts joined together."""
        return text_of(self.parts)

    @property
    def images(self) -> tuple[ImagePart, ...]:
        """The message's image parts, in order."""
        return tuple(part for part in self.parts if isinstance(part, ImagePart))
