"""Where a tool call and its response are written: natural tags, or a gent text format."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from gent_natural.tags import CALL_TAG, RESPONSE_TAG, write_element

if TYPE_CHECKING:
    from gent_core.formats import TextFormat

__all__ = ["ElementWriter", "FormatWriter", "TagWriter", "writer_for"]


def _response_attributes(name: str, error: bool) -> dict[str, str]:
    return {"name": name, "error": "true"} if error else {"name": name}


class ElementWriter(Protocol):
    """Writes one call and one response (the body already prepared)."""

    def call(self, name: str, body: str) -> str:
        """Return the text of a call to tool ``name`` with arguments ``body``."""
        ...

    def response(self, name: str, body: str, *, error: bool) -> str:
        """Return the text of tool ``name``'s response ``body`` (``error``: the call failed)."""
        ...


class TagWriter:
    """Writes ``<tool_call name="X">`` and ``<tool_response name="X">`` elements."""

    def call(self, name: str, body: str) -> str:
        """Return ``<tool_call name="X">``, the body, ``</tool_call>``."""
        return write_element(CALL_TAG, body, {"name": name})

    def response(self, name: str, body: str, *, error: bool) -> str:
        """Return ``<tool_response name="X">`` (with ``error="true"``), the body, the end tag."""
        return write_element(RESPONSE_TAG, body, _response_attributes(name, error))


class FormatWriter:
    """Writes calls and responses as sections ``tool_call`` and ``tool_response`` of a gent
    :class:`~gent_core.formats.TextFormat` (XML tags, Markdown headers...), with the tool's
    name as the ``name`` attribute.
    """

    def __init__(self, text_format: TextFormat) -> None:
        self.format = text_format

    def call(self, name: str, body: str) -> str:
        """Return the format's ``tool_call`` section."""
        return self.format.format_section(CALL_TAG, body, attributes={"name": name})

    def response(self, name: str, body: str, *, error: bool) -> str:
        """Return the format's ``tool_response`` section."""
        attributes = _response_attributes(name, error)
        return self.format.format_section(RESPONSE_TAG, body, attributes=attributes)


def writer_for(text_format: TextFormat | None) -> ElementWriter:
    """The tag writer, or a writer for ``text_format`` when one is given."""
    return TagWriter() if text_format is None else FormatWriter(text_format)
