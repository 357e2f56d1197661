"""Random texts from a GBNF grammar, for property tests of grammar rules.

:func:`sample` walks the grammar choosing alternatives, repetition counts and characters at
random (repetitions are capped so texts stay short). Every text it returns is in the
grammar's language, so a test can check that whatever a constrained model could write is
read back by the format, tool chain and termination.
"""

from __future__ import annotations

import random
import string
from collections.abc import Mapping

from gent_core._grammar.check import GrammarNode, parse_gbnf

__all__ = ["sample"]

_POOL = string.ascii_letters + string.digits + " .,:;!?'\"-_/\\<>#{}[]()\n\t*=+@éλ"


class _Depth(Exception):
    pass


def _char(node: GrammarNode, rng: random.Random) -> str:
    ranges = node.ranges or []
    if not node.negated:
        low, high = rng.choice(ranges)
        return chr(rng.randint(ord(low), ord(high)))
    allowed = [c for c in _POOL if not any(lo <= c <= hi for lo, hi in ranges)]
    return rng.choice(allowed)


def _walk(
    node: GrammarNode,
    rules: Mapping[str, GrammarNode],
    rng: random.Random,
    out: list[str],
    depth: int,
    max_repeat: int,
) -> None:
    if depth > 60:
        raise _Depth
    kind = node.kind
    if kind == "lit":
        out.append(node.text)
    elif kind == "class":
        out.append(_char(node, rng))
    elif kind == "any":
        out.append(rng.choice(_POOL))
    elif kind == "ref":
        _walk(rules[node.text], rules, rng, out, depth + 1, max_repeat)
    elif kind == "seq":
        for item in node.items:
            _walk(item, rules, rng, out, depth, max_repeat)
    elif kind == "alt":
        # Deep in the tree, prefer the shortest-looking branch so texts end.
        options = node.items
        choice = rng.choice(options) if depth < 30 else min(options, key=lambda n: len(n.items))
        _walk(choice, rules, rng, out, depth + 1, max_repeat)
    else:
        high = node.maximum if node.maximum is not None else node.minimum + max_repeat
        high = min(high, node.minimum + max_repeat)
        for _ in range(rng.randint(node.minimum, max(node.minimum, high))):
            _walk(node.items[0], rules, rng, out, depth + 1, max_repeat)


def sample(grammar: str, rng: random.Random, *, max_repeat: int = 4, root: str = "root") -> str:
    """Return a random text of ``grammar``'s language.

    Args:
        grammar: The GBNF source.
        rng: The random source (seed it for reproducible tests).
        max_repeat: How many repetitions beyond the minimum ``*``, ``+`` and ``{m,}`` may add.
        root: The start rule.

    Raises:
        GrammarSyntaxError: When ``grammar`` is malformed.
        RecursionError: When no short text was found in 50 tries (a deeply recursive grammar).
    """
    rules = parse_gbnf(grammar, root=root)
    for _ in range(50):
        out: list[str] = []
        try:
            _walk(rules[root], rules, rng, out, 0, max_repeat)
        except _Depth:
            continue
        return "".join(out)
    raise RecursionError("could not sample a short text from the grammar")
