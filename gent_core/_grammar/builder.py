"""Collecting named GBNF rules and writing them as one grammar.

GBNF is the grammar language of llama.cpp: ``name ::= expression`` rules, string literals in
double quotes, character classes in brackets, groups, alternatives with ``|`` and the
repetition operators ``*``, ``+``, ``?`` and ``{m,n}``. A :class:`GrammarBuilder` collects rules
under unique names, escapes literals and character classes correctly, and renders the grammar
with its ``root`` rule first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

__all__ = ["Grammar", "GrammarBuilder", "char_class", "literal", "rule_name"]

_NAME_CHARS = re.compile(r"[^a-zA-Z0-9-]+")
_LITERAL_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_CLASS_ESCAPES = {
    "\\": "\\\\",
    "]": "\\]",
    "[": "\\[",
    "-": "\\x2D",
    "^": "\\x5E",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    '"': '\\"',
}


def _escape_char(char: str, table: Mapping[str, str]) -> str:
    if char in table:
        return table[char]
    code = ord(char)
    if code < 0x20 or code == 0x7F:
        return f"\\x{code:02X}"
    return char


def literal(text: str) -> str:
    """Return ``text`` as a GBNF string literal (``"..."``), escaped.

    Backslashes, quotes, line breaks, tabs and other control characters are escaped; other
    characters (including non-ASCII ones) are written as they are (GBNF is UTF-8).
    """
    return '"' + "".join(_escape_char(char, _LITERAL_ESCAPES) for char in text) + '"'


def char_class(chars: Iterable[str], *, negated: bool = False, ranges: str = "") -> str:
    r"""Return a GBNF character class matching (or, ``negated``, excluding) ``chars``.

    Args:
        chars: Single characters; ranges are not interpreted (``"-"`` is a plain dash).
        negated: Build ``[^...]`` instead of ``[...]``.
        ranges: GBNF class text written as is after the characters (``"\x00-\x1F"``).
    """
    seen: list[str] = []
    for char in chars:
        if len(char) != 1:
            raise ValueError(f"character classes take single characters, got {char!r}")
        if char not in seen:
            seen.append(char)
    if not seen and not ranges:
        raise ValueError("a character class needs at least one character")
    body = "".join(_escape_char(char, _CLASS_ESCAPES) for char in seen) + ranges
    return f"[{'^' if negated else ''}{body}]"


def rule_name(text: str) -> str:
    """Return ``text`` as a valid GBNF rule name (letters, digits and dashes)."""
    name = _NAME_CHARS.sub("-", text).strip("-")
    return name or "rule"


@dataclass(frozen=True)
class Grammar:
    """A complete GBNF grammar.

    Attributes:
        text: The grammar source, ``root`` rule first.
        rules: Every rule, name to expression, in the order they were added.
        root: The name of the start rule.
    """

    text: str
    rules: Mapping[str, str] = field(default_factory=dict)
    root: str = "root"

    def __str__(self) -> str:
        return self.text


class GrammarBuilder:
    """Collects named GBNF rules; names stay unique and identical rules are shared.

    Example::

        builder = GrammarBuilder()
        word = builder.add("word", "[a-z]+")
        grammar = builder.build(f'{word} (" " {word})*')

    Args:
        avoid: Text that quoted values written under this builder (tool arguments, JSON
            answers) must never contain, compared case-insensitively, because the text format
            would read it as a section delimiter. The agent grammar sets it from
            :meth:`~gent_core.formats.TextFormat.grammar_avoid`; the JSON-Schema converter
            honours it (see :class:`~gent_core._grammar.JSONSchemaConverter`), and a component
            writing its own string rules should too.
        max_calls: Most tool calls one action may hold (the agent's
            ``limits.max_calls_per_action``), for a chain's ``grammar_calls`` to pass to
            :func:`~gent_core._grammar.repeat_calls`; ``None``: its default.
    """

    def __init__(self, *, avoid: Sequence[str] = (), max_calls: int | None = None) -> None:
        self._rules: dict[str, str] = {}
        self.avoid: tuple[str, ...] = tuple(text for text in avoid if text)
        self.max_calls = max_calls

    @staticmethod
    def literal(text: str) -> str:
        """Return ``text`` as an escaped GBNF string literal (see :func:`literal`)."""
        return literal(text)

    @staticmethod
    def char_class(chars: Iterable[str], *, negated: bool = False, ranges: str = "") -> str:
        """Return a GBNF character class (see :func:`char_class`)."""
        return char_class(chars, negated=negated, ranges=ranges)

    def has(self, name: str) -> bool:
        """Whether a rule called ``name`` exists."""
        return name in self._rules

    def get(self, name: str) -> str | None:
        """Return the expression of rule ``name``, or ``None``."""
        return self._rules.get(name)

    def add(self, name: str, expression: str) -> str:
        """Add a rule and return its (possibly suffixed) name.

        If a rule with the same name and expression exists, its name is returned and nothing is
        added; if the name is taken by another expression, a numeric suffix is appended.

        Args:
            name: The wanted rule name (invalid characters become dashes).
            expression: The rule's GBNF expression.

        Returns:
            The name to reference the rule by.
        """
        base = rule_name(name)
        candidate = base
        index = 1
        while candidate in self._rules:
            if self._rules[candidate] == expression:
                return candidate
            index += 1
            candidate = f"{base}-{index}"
        self._rules[candidate] = expression
        return candidate

    def reserve(self, name: str) -> str:
        """Reserve a unique rule name (for recursive rules) to :meth:`define` later."""
        base = rule_name(name)
        candidate = base
        index = 1
        while candidate in self._rules:
            index += 1
            candidate = f"{base}-{index}"
        self._rules[candidate] = ""
        return candidate

    def define(self, name: str, expression: str) -> None:
        """Set the expression of a rule reserved with :meth:`reserve`."""
        if name not in self._rules:
            raise KeyError(f"rule {name!r} was not reserved")
        self._rules[name] = expression

    @property
    def rules(self) -> dict[str, str]:
        """A copy of the rules collected so far."""
        return dict(self._rules)

    def build(self, root_expression: str) -> Grammar:
        """Return the grammar whose ``root`` rule is ``root_expression``.

        Raises:
            ValueError: When a rule named ``root`` was added, or a reserved rule is undefined.
        """
        if "root" in self._rules:
            raise ValueError("the rule name 'root' is reserved for build()")
        undefined = [name for name, expression in self._rules.items() if not expression]
        if undefined:
            raise ValueError(f"reserved rules never defined: {', '.join(undefined)}")
        lines = [f"root ::= {root_expression}"]
        lines.extend(f"{name} ::= {expression}" for name, expression in self._rules.items())
        rules = {"root": root_expression, **self._rules}
        return Grammar("\n".join(lines) + "\n", rules)
