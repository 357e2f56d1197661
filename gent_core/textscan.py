"""Text scanning for format and tool-chain plugins: reading model text, quoting it back.

* collecting sections while the text streams, holding back what may still become a
  delimiter and reading it again (:class:`SectionCollector`);
* attributes of a section tag (:func:`parse_attributes`, :func:`attribute_pairs`,
  :func:`format_attributes`, :data:`EMPTY_ATTRIBUTES`);
* model text quoted on one line for a message, and where an offset is
  (:func:`quote_start`, :func:`quote_end`, :func:`snippet_at`, :func:`line_column`).

A toolkit with a floor: it imports only the contracts and the values below them, never the
command line, the agent loop or the configuration. Names load lazily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core._lazy import export_names, load_export

_EXPORTS: dict[str, str] = {
    # section collection and attributes
    "EMPTY_ATTRIBUTES": "gent_core._textscan",
    "SectionCollector": "gent_core._textscan",
    "attribute_pairs": "gent_core._textscan",
    "format_attributes": "gent_core._textscan",
    "parse_attributes": "gent_core._textscan",
    # model text quoted in messages
    "line_column": "gent_core._textscan",
    "quote_end": "gent_core._textscan",
    "quote_start": "gent_core._textscan",
    "snippet_at": "gent_core._textscan",
}

if TYPE_CHECKING:
    from gent_core._textscan import (
        EMPTY_ATTRIBUTES,
        SectionCollector,
        attribute_pairs,
        format_attributes,
        line_column,
        parse_attributes,
        quote_end,
        quote_start,
        snippet_at,
    )

__all__ = [
    "EMPTY_ATTRIBUTES",
    "SectionCollector",
    "attribute_pairs",
    "format_attributes",
    "line_column",
    "parse_attributes",
    "quote_end",
    "quote_start",
    "snippet_at",
]


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())
