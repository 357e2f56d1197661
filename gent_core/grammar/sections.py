"""Grammar rules for sections: how a format delimits them and what free text may hold.

A section's rule is derived from the format's own :meth:`~gent_core.formats.TextFormat.
format_section`: the text it writes around a placeholder gives the literal prefix and suffix,
so any format whose sections are "delimiter, content, delimiter" works without grammar code.
Free text (thinking, a plain answer) must never open or close a section; the built-in rules
for ``xml`` and ``markdown`` say exactly that, and other formats get a conservative default
that forbids the first character of every delimiter.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from gent_core.errors import GentError
from gent_core.grammar.builder import GrammarBuilder, char_class, literal

if TYPE_CHECKING:
    from gent_core.formats import TextFormat

__all__ = [
    "GrammarUnsupportedError",
    "generic_text",
    "markdown_text",
    "section_delimiters",
    "xml_text",
]

_PLACEHOLDER = "GENTGRAMMARBODY7F3A"


class GrammarUnsupportedError(GentError):
    """No grammar can be built for this structure (e.g. an unusual format)."""


def section_delimiters(text_format: TextFormat, name: str) -> tuple[str, str]:
    """Return the literal text a format writes before and after a section's content.

    Raises:
        GrammarUnsupportedError: When the format does not write the content verbatim once.
    """
    written = text_format.format_section(name, _PLACEHOLDER)
    if written.count(_PLACEHOLDER) != 1:
        raise GrammarUnsupportedError(
            f"format {getattr(text_format, 'name', type(text_format).__name__)!r} does not "
            f"write section content verbatim; cannot derive a grammar for section {name!r}",
            hint="Implement TextFormat.grammar_section() to supply the rule.",
        )
    prefix, _, suffix = written.partition(_PLACEHOLDER)
    return prefix, suffix


def xml_text(builder: GrammarBuilder) -> str:
    """Free text for the XML format: at least one visible character, and ``<`` only when it
    cannot start a tag (not followed by a letter, ``/``, ``!`` or another ``<``).
    """
    char = builder.add("xml-char", r'[^<] | "<" [^a-zA-Z/!<]')
    visible = builder.add("xml-visible", r'[^< \t\n] | "<" [^a-zA-Z/!<]')
    return builder.add("xml-text", f"[ \\t\\n]* {visible} {char}*")


def markdown_text(builder: GrammarBuilder) -> str:
    """Free text for the Markdown format: no line may read as a header or a code fence (its
    first visible character is not ``#``, a backtick or ``~``); the first line is not empty.
    """
    line = builder.add("md-line", r"[ \t]{0,8} [^#`~ \t\n] [^\n]*")
    return builder.add("md-text", f'{line} ("\\n" {line}?)*')


def generic_text(builder: GrammarBuilder, delimiters: Iterable[str]) -> str:
    """Free text for any other format: at least one visible character, and the first visible
    character of every delimiter is forbidden everywhere, so no delimiter can appear inside.
    """
    forbidden = sorted({d.strip()[0] for d in delimiters if d.strip()})
    if not forbidden:
        raise GrammarUnsupportedError("the format's sections have no visible delimiters")
    visible = char_class([*forbidden, " ", "\t", "\n"], negated=True)
    return builder.add("free-text", f"[ \\t\\n]* {visible} {char_class(forbidden, negated=True)}*")


def section_rule(builder: GrammarBuilder, text_format: TextFormat, name: str, body: str) -> str:
    """Return the rule of section ``name`` with content ``body``: the format's own
    ``grammar_section`` when it has one, else its delimiters around ``body``.
    """
    custom = text_format.grammar_section(builder, name, body)
    if custom is not None:
        return builder.add(f"{name}-section", custom)
    prefix, suffix = section_delimiters(text_format, name)
    parts = [literal(prefix)] if prefix else []
    parts.append(body)
    if suffix:
        parts.append(literal(suffix))
    return builder.add(f"{name}-section", " ".join(parts))
