"""Grammar rules for sections, derived from what a format writes.

A section's delimiters are read from the format's own ``format_section``: the text it writes
around a placeholder gives the literal prefix and suffix, so any format whose sections are
"delimiter, content, delimiter" gets a section rule without grammar code
(:func:`delimited_section`, the default of :meth:`TextFormat.grammar_section
<gent_core.formats.TextFormat.grammar_section>`). Free text that must not open or close a
section gets a conservative rule from the same delimiters (:func:`conservative_text`) when
the format offers no rule of its own.

Nothing here knows a format by name: formats with finer rules supply them through the
contract (``grammar_section``, ``grammar_text``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol

from gent_core._grammar.builder import GrammarBuilder, literal
from gent_core._grammar.strings import free_text
from gent_core.errors import GentError

__all__ = [
    "GrammarUnsupportedError",
    "SectionWriter",
    "conservative_text",
    "delimited_section",
    "section_delimiters",
]

_PLACEHOLDER = "GENTGRAMMARBODY7F3A"


class GrammarUnsupportedError(GentError):
    """No grammar can be built for this structure (e.g. an unusual format)."""


class SectionWriter(Protocol):
    """What the section rules need from a format: how it writes one section."""

    def format_section(
        self, name: str, content: str, *, attributes: Mapping[str, str] | None = None
    ) -> str:
        """Write section ``name`` around ``content``."""
        ...


def _format_label(text_format: SectionWriter) -> str:
    return str(getattr(text_format, "name", "") or type(text_format).__name__)


def section_delimiters(text_format: SectionWriter, name: str) -> tuple[str, str]:
    """Return the literal text a format writes before and after a section's content.

    Raises:
        GrammarUnsupportedError: When the format does not write the content verbatim once.
    """
    try:
        written = text_format.format_section(name, _PLACEHOLDER)
    except ValueError as error:
        raise GrammarUnsupportedError(
            f"format {_format_label(text_format)!r} cannot write section {name!r}: {error}"
        ) from error
    if written.count(_PLACEHOLDER) != 1:
        raise GrammarUnsupportedError(
            f"format {_format_label(text_format)!r} does not write section content verbatim; "
            f"cannot derive a grammar for section {name!r}",
            hint="Implement TextFormat.grammar_section() to supply the rule.",
        )
    prefix, _, suffix = written.partition(_PLACEHOLDER)
    return prefix, suffix


def delimited_section(text_format: SectionWriter, name: str, body: str) -> str:
    """Return the expression of section ``name``: its delimiters (as ``format_section``
    writes them) around the rule ``body``.

    Raises:
        GrammarUnsupportedError: When the format does not write the content verbatim.
    """
    prefix, suffix = section_delimiters(text_format, name)
    parts = [literal(prefix)] if prefix else []
    parts.append(body)
    if suffix:
        parts.append(literal(suffix))
    return " ".join(parts)


def conservative_text(
    builder: GrammarBuilder, text_format: SectionWriter, names: Iterable[str]
) -> str:
    """Add a free-text rule derived only from the format's delimiters and return its name.

    The text holds at least one visible character and never the first two characters of any
    delimiter of ``names`` (case-insensitively), so it can neither open nor close one of
    those sections. Conservative: a format with its own ``grammar_text`` allows more.

    Raises:
        GrammarUnsupportedError: When the sections have no visible delimiters at all.
    """
    delimiters = {
        part.strip()
        for name in names
        for part in section_delimiters(text_format, name)
        if part.strip()
    }
    if not delimiters:
        raise GrammarUnsupportedError("the format's sections have no visible delimiters")
    return free_text(builder, "free-text", sorted(delimiters))
