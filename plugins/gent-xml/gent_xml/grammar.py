"""Grammar rules of the ``xml`` format (for back ends that constrain output with GBNF)."""

from __future__ import annotations

from gent_core.grammar import GrammarBuilder

__all__ = ["xml_text"]


def xml_text(builder: GrammarBuilder) -> str:
    """Add the free-text rule of the XML format and return its name.

    At least one visible character, and ``<`` only where it cannot start a tag: not followed
    by a letter, ``/``, ``!`` or another ``<``. So free text can neither open nor close a
    section (nor start a CDATA block), whatever the section names are.
    """
    char = builder.add("xml-char", r'[^<] | "<" [^a-zA-Z/!<]')
    visible = builder.add("xml-visible", r'[^< \t\n] | "<" [^a-zA-Z/!<]')
    return builder.add("xml-text", f"[ \\t\\n]* {visible} {char}*")
