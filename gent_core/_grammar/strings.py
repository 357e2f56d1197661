"""Characters of quoted strings that can never spell a section delimiter.

A tool argument or a JSON answer is written inside a section, so a string holding the
format's closing delimiter (``</action>`` in the XML format) would end the section early and
cut the call. :func:`string_char` builds the rule for one *unit* of a double-quoted string (a
character or an escape sequence) such that no sequence of units contains any of the texts to
avoid, compared case-insensitively.

It keeps strings free of the first two characters of each text (``"</"`` for
``"</action>"``), which is enough to never contain the text and keeps the rule small: after a
character that starts a pair, the next unit may be anything but the pair's second character
(or another starting character, handled the same way). A string therefore never ends with a
starting character (it is always followed by one more unit). A one-character text is simply
never written.
"""

from __future__ import annotations

from collections.abc import Iterable

from gent_core._grammar.builder import GrammarBuilder, char_class, literal
from gent_core.errors import GentError

__all__ = ["ESCAPE", "StringGrammarError", "free_text", "string_char"]

ESCAPE = r'"\\" (["\\/bfnrt] | "u" ([0-9a-cA-CeEfF] [0-9a-fA-F]{3} | [dD] [0-7] [0-9a-fA-F]{2}))'
"""A JSON escape sequence (``\\n``, ``\\u00e9``...); ``\\u`` escapes of lone surrogates
(D800-DFFF) are refused, as many JSON parsers reject them."""

_CONTROL = r"\x7F\x00-\x1F"
# The last characters an escape sequence can end with: a text to avoid may not start with
# one, or an escape followed by the next unit could spell it unseen.
_ESCAPE_ENDS = frozenset('"\\/bfnrtu0123456789abcdefABCDEF')


class StringGrammarError(GentError):
    """Strings cannot be kept free of a text to avoid (it starts like an escape sequence)."""


def _cases(char: str) -> set[str]:
    return {char, char.lower(), char.upper()} if len(char.lower()) == 1 else {char}


def _pairs(avoid: Iterable[str]) -> tuple[set[str], dict[str, set[str]]]:
    """The characters never written, and for each starting character the ones that may not
    follow it.
    """
    banned: set[str] = set()
    follow: dict[str, set[str]] = {}
    for text in avoid:
        if not text:
            continue
        if len(text) == 1:
            banned |= _cases(text)
            continue
        for first in _cases(text[0]):
            follow.setdefault(first, set()).update(_cases(text[1]))
    for char in banned:
        follow.pop(char, None)
    return banned, follow


def _units(
    builder: GrammarBuilder, name: str, avoid: Iterable[str], *, quoted: bool
) -> tuple[str, list[str]]:
    """Return the rule of one unit and the expressions of the units that are not blank.

    Quoted units exclude quotes, backslashes and control characters and include escape
    sequences; unquoted units are any character (line breaks included).
    """
    banned, follow = _pairs(avoid)
    if quoted:
        risky = sorted(char for char in follow if char in _ESCAPE_ENDS)
        if risky:
            raise StringGrammarError(
                f"cannot keep strings free of text starting with {risky[0]!r}: an escape "
                "sequence may end with that character",
                hint="Avoid delimiters that start with punctuation other than / and \\.",
            )
    starts = sorted(follow)
    special = ['"', "\\"] if quoted else []
    ranges = _CONTROL if quoted else ""
    escapes = [ESCAPE] if quoted and "\\" not in banned else []
    blank = [] if quoted else [" ", "\t", "\n", "\r"]

    def chars(extra: Iterable[str]) -> list[str]:
        return [*special, *sorted(set(extra))]

    def plain(extra: Iterable[str]) -> str:
        listed = chars(extra)
        if not listed and not ranges:
            return "."
        return char_class(listed, negated=True, ranges=ranges)

    runs = {char: builder.reserve(f"{name}-after-{ord(char):x}") for char in starts}
    for char, rule in runs.items():
        refused = follow[char]
        options = [plain(banned | set(starts) | refused)]
        if escapes and "\\" not in refused:
            options.extend(escapes)
        options.extend(runs[other] for other in starts if other not in refused)
        builder.define(rule, f"{literal(char)} ({' | '.join(options)})")
    unit = builder.add(name, " | ".join([plain(banned | set(starts)), *escapes, *runs.values()]))
    visible = [plain(banned | set(starts) | set(blank)), *escapes]
    visible.extend(rule for char, rule in runs.items() if char not in blank)
    return unit, visible


def string_char(builder: GrammarBuilder, prefix: str, avoid: Iterable[str] = ()) -> str:
    r"""Add the rules for one unit of a double-quoted string and return its rule name.

    A unit is any character but a quote, a backslash or a control character, or a JSON
    escape sequence; with ``avoid``, no run of units contains any of those texts
    (case-insensitively).

    Args:
        builder: Where the rules go.
        prefix: A prefix for the rule names.
        avoid: Texts strings must never contain.

    Raises:
        StringGrammarError: When a text to avoid starts with a character an escape sequence
            can end with (a letter a-f, b, n, r, t, u, a digit, ``/``, ``\`` or a quote).
    """
    texts = [text for text in avoid if text]
    unit, _ = _units(builder, f"{prefix}{'safe-' if texts else ''}char", texts, quoted=True)
    return unit


def free_text(builder: GrammarBuilder, name: str, avoid: Iterable[str]) -> str:
    """Add the rule of free text that never contains any text of ``avoid`` (compared
    case-insensitively) and holds at least one visible character; return its name.

    Used for the content of a section whose component offers no grammar: given the format's
    delimiters, the text can neither open nor close a section.
    """
    unit, visible = _units(builder, f"{name}-char", avoid, quoted=False)
    first = builder.add(f"{name}-visible", " | ".join(visible))
    return builder.add(name, f"[ \\t\\n\\r]* {first} {unit}*")
