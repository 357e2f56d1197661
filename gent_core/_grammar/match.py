"""Matching text against a GBNF grammar in pure Python (for tests and diagnostics).

:func:`matches` tells whether a whole text is in a grammar's language. It memoises the set of
end offsets reachable from each (node, offset) pair, so it is polynomial in the text length;
it is meant for the short texts of tests (every example output a format or chain writes must
be accepted by the grammar built for it), not for constraining generation.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping

from gent_core._grammar.check import GrammarNode, parse_gbnf

__all__ = ["GrammarMatcher", "matches"]

_EMPTY: frozenset[int] = frozenset()


class GrammarMatcher:
    """A parsed grammar that tells which texts it accepts.

    Args:
        grammar: The GBNF source (checked like :func:`~gent_core._grammar.check_gbnf`).
        root: The start rule's name.

    Raises:
        GrammarSyntaxError: When ``grammar`` is malformed.
    """

    def __init__(self, grammar: str, *, root: str = "root") -> None:
        self._rules: Mapping[str, GrammarNode] = parse_gbnf(grammar, root=root)
        self._root = root

    def matches(self, text: str) -> bool:
        """Whether the whole of ``text`` is derived from the root rule."""
        memo: dict[tuple[int, int], frozenset[int]] = {}
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20_000))
        try:
            return len(text) in self._ends(self._rules[self._root], 0, text, memo)
        finally:
            sys.setrecursionlimit(limit)

    def _ends(
        self,
        node: GrammarNode,
        pos: int,
        text: str,
        memo: dict[tuple[int, int], frozenset[int]],
    ) -> frozenset[int]:
        key = (id(node), pos)
        found = memo.get(key)
        if found is not None:
            return found
        memo[key] = _EMPTY  # guards against (already rejected) left recursion
        result = self._compute(node, pos, text, memo)
        memo[key] = result
        return result

    def _compute(
        self,
        node: GrammarNode,
        pos: int,
        text: str,
        memo: dict[tuple[int, int], frozenset[int]],
    ) -> frozenset[int]:
        kind = node.kind
        if kind == "lit":
            return frozenset({pos + len(node.text)}) if text.startswith(node.text, pos) else _EMPTY
        if kind == "any":
            return frozenset({pos + 1}) if pos < len(text) else _EMPTY
        if kind == "class":
            if pos >= len(text):
                return _EMPTY
            char = text[pos]
            inside = any(low <= char <= high for low, high in node.ranges or ())
            return frozenset({pos + 1}) if inside != node.negated else _EMPTY
        if kind == "ref":
            return self._ends(self._rules[node.text], pos, text, memo)
        if kind == "alt":
            out: set[int] = set()
            for item in node.items:
                out |= self._ends(item, pos, text, memo)
            return frozenset(out)
        if kind == "seq":
            current: set[int] = {pos}
            for item in node.items:
                current = {end for start in current for end in self._ends(item, start, text, memo)}
                if not current:
                    break
            return frozenset(current)
        return self._repeat(node, pos, text, memo)

    def _repeat(
        self,
        node: GrammarNode,
        pos: int,
        text: str,
        memo: dict[tuple[int, int], frozenset[int]],
    ) -> frozenset[int]:
        item = node.items[0]
        level: set[int] = {pos}
        result: set[int] = set()
        seen: set[int] = set()
        count = 0
        while True:
            if count >= node.minimum:
                level -= seen
                seen |= level
                result |= level
            if not level or (node.maximum is not None and count == node.maximum):
                break
            level = {end for start in level for end in self._ends(item, start, text, memo)}
            count += 1
        return frozenset(result)


def matches(grammar: str, text: str, *, root: str = "root") -> bool:
    """Whether ``text`` is in the language of the GBNF ``grammar``.

    Raises:
        GrammarSyntaxError: When ``grammar`` is malformed.
    """
    return GrammarMatcher(grammar, root=root).matches(text)
