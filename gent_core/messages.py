"""Chat messages and their content parts (text and images)."""

from __future__ import annotations

import base64
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["ContentPart", "ImagePart", "Message", "Role", "TextPart", "text_of"]

Role = Literal["system", "user", "assistant"]


@dataclass(frozen=True)
class TextPart:
    """A piece of text inside a message."""

    text: str


@dataclass(frozen=True)
class ImagePart:
    """An image inside a message or a tool result.

    Attributes:
        data: The encoded image bytes (PNG, JPEG...).
        media_type: The IANA media type, e.g. ``"image/png"``.
    """

    data: bytes
    media_type: str = "image/png"

    def data_url(self) -> str:
        """Return the image as a ``data:`` URL (what OpenAI-style APIs accept)."""
        return f"data:{self.media_type};base64,{base64.b64encode(self.data).decode('ascii')}"


ContentPart = TextPart | ImagePart


def text_of(parts: Iterable[ContentPart]) -> str:
    """Concatenate the text parts of ``parts``, ignoring media."""
    return "".join(part.text for part in parts if isinstance(part, TextPart))


@dataclass(frozen=True)
class Message:
    """One message of a conversation.

    Attributes:
        role: ``"system"``, ``"user"`` or ``"assistant"``.
        parts: The content, in order: text and images.
    """

    role: Role
    parts: tuple[ContentPart, ...] = field(default_factory=tuple)

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
    def assistant(cls, content: str | Sequence[ContentPart]) -> Message:
        """Build an assistant message."""
        return cls.of("assistant", content)

    @property
    def text(self) -> str:
        """The message's text parts joined together."""
        return text_of(self.parts)

    @property
    def images(self) -> tuple[ImagePart, ...]:
        """The message's image parts, in order."""
        return tuple(part for part in self.parts if isinstance(part, ImagePart))
