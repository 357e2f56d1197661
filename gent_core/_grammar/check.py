"""A pure-Python GBNF checker that follows llama.cpp's grammar parser.

A grammar that llama.cpp cannot parse makes its sampler constructor fail (and older bindings
crash on the null sampler), so gent checks every generated grammar here before a back end
uses it. The checker accepts what llama.cpp's ``grammar-parser`` accepts (rules separated by
newlines, literals, character classes, groups, ``.``, ``* + ? {m,n}``, comments) and rejects
what it rejects: syntax errors, undefined rules, a missing ``root`` and left recursion.
It runs in time linear in the grammar's length (plus the rule graph).
"""

from __future__ import annotations

from dataclasses import dataclass

from gent_core.errors import GentError, Location

__all__ = ["GrammarNode", "GrammarSyntaxError", "check_gbnf", "parse_gbnf"]

_ESCAPES = {"t": "\t", "r": "\r", "n": "\n", "\\": "\\", '"': '"', "[": "[", "]": "]"}
_HEX_LENGTHS = {"x": 2, "u": 4, "U": 8}
_HEX = set("0123456789abcdefABCDEF")
_REPEATS: dict[str, tuple[int, int | None]] = {"*": (0, None), "+": (1, None), "?": (0, 1)}


class GrammarSyntaxError(GentError):
    """A GBNF grammar is malformed (llama.cpp would reject it)."""


@dataclass
class GrammarNode:
    """One node of a parsed grammar: an alternative, a sequence, a literal, a character class,
    ``.``, a rule reference or a repetition (``minimum`` to ``maximum`` times).
    """

    kind: str  # "alt", "seq", "lit", "class", "any", "ref", "rep"
    items: list[GrammarNode]
    text: str = ""
    minimum: int = 0
    maximum: int | None = None
    ranges: list[tuple[str, str]] | None = None
    negated: bool = False


def _is_word(char: str) -> bool:
    return char.isascii() and (char.isalnum() or char == "-")


class _Parser:
    def __init__(self, source: str) -> None:
        self.src = source
        self.pos = 0
        self.rules: dict[str, GrammarNode] = {}
        self.refs: list[tuple[str, int]] = []

    def error(self, message: str, pos: int | None = None) -> GrammarSyntaxError:
        at = self.pos if pos is None else pos
        line = self.src.count("\n", 0, at) + 1
        column = at - (self.src.rfind("\n", 0, at) + 1) + 1
        snippet = self.src[at : at + 20].split("\n", 1)[0]
        return GrammarSyntaxError(
            f"invalid GBNF grammar: {message} near {snippet!r}",
            location=Location(line=line, column=column, offset=at),
        )

    def peek(self, offset: int = 0) -> str:
        index = self.pos + offset
        return self.src[index] if index < len(self.src) else ""

    def space(self, newline_ok: bool) -> None:
        src = self.src
        while self.pos < len(src):
            char = src[self.pos]
            if char in " \t" or (newline_ok and char in "\r\n"):
                self.pos += 1
            elif char == "#":
                while self.pos < len(src) and src[self.pos] not in "\r\n":
                    self.pos += 1
            else:
                break

    def name(self) -> str:
        start = self.pos
        while self.pos < len(self.src) and _is_word(self.src[self.pos]):
            self.pos += 1
        if self.pos == start:
            raise self.error("expecting name")
        return self.src[start : self.pos]

    def integer(self) -> int:
        start = self.pos
        while self.peek().isdigit() and self.peek().isascii():
            self.pos += 1
        if self.pos == start:
            raise self.error("expecting integer")
        return int(self.src[start : self.pos])

    def char(self) -> str:
        if self.pos >= len(self.src):
            raise self.error("unexpected end of input")
        char = self.src[self.pos]
        if char != "\\":
            self.pos += 1
            return char
        escape = self.peek(1)
        if escape in _HEX_LENGTHS:
            length = _HEX_LENGTHS[escape]
            digits = self.src[self.pos + 2 : self.pos + 2 + length]
            if len(digits) != length or not set(digits) <= _HEX:
                raise self.error("expecting hex digits in escape")
            self.pos += 2 + length
            return chr(int(digits, 16))
        if escape in _ESCAPES:
            self.pos += 2
            return _ESCAPES[escape]
        if not escape:
            raise self.error("unexpected end of input")
        raise self.error(f"unknown escape '\\{escape}'")

    def parse(self) -> dict[str, GrammarNode]:
        self.space(newline_ok=True)
        while self.pos < len(self.src):
            self.rule()
        return self.rules

    def rule(self) -> None:
        start = self.pos
        name = self.name()
        self.space(newline_ok=False)
        if self.src[self.pos : self.pos + 3] != "::=":
            raise self.error("expecting ::=")
        self.pos += 3
        self.space(newline_ok=True)
        node = self.alternates(nested=False)
        if name in self.rules:
            # llama.cpp appends to the earlier definition; keep both as alternatives.
            node = GrammarNode("alt", [self.rules[name], node])
        self.rules[name] = node
        if self.peek() == "\r" and self.peek(1) == "\n":
            self.pos += 2
        elif self.peek() == "\n":
            self.pos += 1
        elif self.pos < len(self.src):
            raise self.error(f"expecting newline or end after rule {name!r}", start)
        self.space(newline_ok=True)

    def alternates(self, nested: bool) -> GrammarNode:
        options = [self.sequence(nested)]
        while self.peek() == "|":
            self.pos += 1
            self.space(newline_ok=True)
            options.append(self.sequence(nested))
        return options[0] if len(options) == 1 else GrammarNode("alt", options)

    def char_class(self) -> GrammarNode:
        """``[a-z_]`` or ``[^"]``, read from its opening bracket."""
        self.pos += 1
        negated = self.peek() == "^"
        if negated:
            self.pos += 1
        ranges: list[tuple[str, str]] = []
        while self.peek() != "]":
            first = last = self.char()
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.pos += 1
                last = self.char()
            ranges.append((first, last))
        self.pos += 1
        if not ranges:
            raise self.error("empty character class", self.pos - 2)
        return GrammarNode("class", [], ranges=ranges, negated=negated)

    def bounds(self, nested: bool) -> tuple[int, int | None]:
        """The bounds of ``{m}``, ``{m,}`` or ``{m,n}``, read after its opening brace."""
        self.space(nested)
        low = self.integer()
        high: int | None = low
        self.space(nested)
        if self.peek() == ",":
            self.pos += 1
            self.space(nested)
            high = self.integer() if self.peek().isdigit() else None
            self.space(nested)
        if self.peek() != "}":
            raise self.error("expecting '}'")
        self.pos += 1
        if high is not None and high < low:
            raise self.error("repetition maximum below its minimum")
        return low, high

    def sequence(self, nested: bool) -> GrammarNode:
        items: list[GrammarNode] = []
        while self.pos < len(self.src):
            char = self.src[self.pos]
            if char == '"':
                self.pos += 1
                chars: list[str] = []
                while self.peek() != '"':
                    chars.append(self.char())
                self.pos += 1
                items.append(GrammarNode("lit", [], "".join(chars)))
            elif char == "[":
                items.append(self.char_class())
            elif _is_word(char):
                at = self.pos
                name = self.name()
                self.refs.append((name, at))
                items.append(GrammarNode("ref", [], name))
            elif char == "(":
                self.pos += 1
                self.space(newline_ok=True)
                inner = self.alternates(nested=True)
                if self.peek() != ")":
                    raise self.error("expecting ')'")
                self.pos += 1
                items.append(inner)
            elif char == ".":
                self.pos += 1
                items.append(GrammarNode("any", []))
            elif char in "*+?{":
                if not items:
                    raise self.error(f"expecting preceding item to {char}")
                self.pos += 1
                low, high = self.bounds(nested) if char == "{" else _REPEATS[char]
                items[-1] = GrammarNode("rep", [items[-1]], minimum=low, maximum=high)
            else:
                break
            self.space(nested)
        return GrammarNode("seq", items)


def _nullable(node: GrammarNode, known: dict[str, bool]) -> bool:
    if node.kind == "lit":
        return node.text == ""
    if node.kind in ("class", "any"):
        return False
    if node.kind == "ref":
        return known.get(node.text, False)
    if node.kind == "rep":
        return node.minimum == 0 or _nullable(node.items[0], known)
    if node.kind == "seq":
        return all(_nullable(item, known) for item in node.items)
    return any(_nullable(item, known) for item in node.items)


def _left_refs(node: GrammarNode, known: dict[str, bool], out: set[str]) -> None:
    if node.kind == "ref":
        out.add(node.text)
    elif node.kind == "rep":
        if node.maximum != 0:
            _left_refs(node.items[0], known, out)
    elif node.kind == "seq":
        for item in node.items:
            _left_refs(item, known, out)
            if not _nullable(item, known):
                break
    elif node.kind == "alt":
        for item in node.items:
            _left_refs(item, known, out)


def _find_left_recursion(rules: dict[str, GrammarNode]) -> str | None:
    nullable = dict.fromkeys(rules, False)
    changed = True
    while changed:
        changed = False
        for name, node in rules.items():
            if not nullable[name] and _nullable(node, nullable):
                nullable[name] = changed = True
    edges: dict[str, set[str]] = {}
    for name, node in rules.items():
        edges[name] = set()
        _left_refs(node, nullable, edges[name])
    state: dict[str, int] = {}  # 1 = in progress, 2 = done
    for start in rules:
        if state.get(start):
            continue
        stack: list[tuple[str, list[str]]] = [(start, sorted(edges[start]))]
        state[start] = 1
        while stack:
            name, pending = stack[-1]
            if not pending:
                state[name] = 2
                stack.pop()
                continue
            target = pending.pop()
            if state.get(target) == 1:
                return target
            if not state.get(target):
                state[target] = 1
                stack.append((target, sorted(edges[target])))
    return None


def parse_gbnf(text: str, *, root: str = "root") -> dict[str, GrammarNode]:
    """Parse and check ``text``; return its rules (for :mod:`gent_core._grammar.match`).

    Raises:
        GrammarSyntaxError: As :func:`check_gbnf`.
    """
    parser = _Parser(text)
    rules = parser.parse()
    for name, at in parser.refs:
        if name not in rules:
            raise parser.error(f"undefined rule identifier {name!r}", at)
    if root not in rules:
        raise GrammarSyntaxError(f"invalid GBNF grammar: no {root!r} rule")
    recursive = _find_left_recursion(rules)
    if recursive is not None:
        raise GrammarSyntaxError(f"invalid GBNF grammar: left recursion through rule {recursive!r}")
    return rules


def check_gbnf(text: str, *, root: str = "root") -> list[str]:
    """Check that ``text`` is a GBNF grammar llama.cpp accepts.

    Args:
        text: The grammar source.
        root: The start rule's name.

    Returns:
        The names of the rules, in order of definition.

    Raises:
        GrammarSyntaxError: Saying what is wrong and where (line and column).
    """
    return list(parse_gbnf(text, root=root))
