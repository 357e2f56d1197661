"""Written arithmetic read as an expression: ``"9876 minus 6789"``, ``"2^10"``,
``"17% of 240"``, ``"the square root of 2025"``, ``"Subtract 999 from 5000."``, ``"What is
12.5 times 8?"``, a multiplication sign for ``*``.

Small models often write a calculator call the way the task is worded. :func:`rewrite` turns
the usual words and signs into the operators :func:`~gent_tools_basic.arithmetic.evaluate`
accepts. The calculator uses it only for an expression that is *not* valid as written, so a
valid expression never changes meaning; the rewritten expression is then checked and
evaluated like any other (nothing is executed).

Every rule is one regular expression applied once, left to right, so the work is linear in
the expression's length (which the calculator bounds).
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["rewrite"]

_NUMBER = r"\d+(?:\.\d+)?"
_SIGNED = rf"-?{_NUMBER}"
_LIST = rf"{_SIGNED}(?:\s*,\s*{_SIGNED})*\s*,?\s+and\s+{_SIGNED}"
"""Numbers written as a list: ``4, 8 and 15``."""


def _joined(operator: str) -> Callable[[re.Match[str]], str]:
    """A replacement joining the numbers of a written list with ``operator``."""

    def replace(match: re.Match[str]) -> str:
        return f" {operator} ".join(re.findall(_SIGNED, match[1]))

    return replace


def _average(match: re.Match[str]) -> str:
    numbers = re.findall(_SIGNED, match[1])
    return f"({' + '.join(numbers)}) / {len(numbers)}"


_Replacement = str | Callable[[re.Match[str]], str]

_RULES: tuple[tuple[re.Pattern[str], _Replacement], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), replacement)
    for pattern, replacement in (
        # Signs that are not Python operators.
        ("[\u00d7\u2715\u2716\u00b7\u2219]", "*"),  # multiplication signs and dots
        ("[\u00f7\u2236]", "/"),  # division sign, ratio
        ("[\u2212\u2013\u2014]", "-"),  # minus sign, en and em dashes
        (r"\^", "**"),
        # Thousands separators: 1,234,567 (no space after the comma).
        (r"(?<=\d),(?=\d{3}(?!\d))", ""),
        # "x% of y", "x percent of y".
        (rf"({_NUMBER})\s*(?:%|percent)\s+of\b", r"(\1 / 100) *"),
        # "the square/cube root of x".
        (rf"(?:the\s+)?square\s+root\s+of\s+({_NUMBER})", r"sqrt(\1)"),
        (rf"(?:the\s+)?cube\s+root\s+of\s+({_NUMBER})", r"(\1 ** (1 / 3))"),
        # "x to the power of y", "x to the 16th power", "x raised to y", "x squared/cubed".
        (r"\bto\s+the\s+power\s+of\b", "**"),
        (r"\bto\s+the\s+(\d+)(?:st|nd|rd|th)?\s+power\b", r"** \1"),
        (r"\braised\s+to(?:\s+the\s+power\s+of)?\b", "**"),
        (r"\bsquared\b", "** 2"),
        (r"\bcubed\b", "** 3"),
        # Arithmetic said with a verb or a noun: "subtract 999 from 5000", "add 2 and 3",
        # "multiply 37 by 43", "divide 81 by 0.9", "the difference between 9 and 4", "the
        # sum / product / average of 4, 8 and 15".
        (rf"\bsubtract\s+({_SIGNED})\s+from\s+({_SIGNED})", r"\2 - \1"),
        (rf"\badd\s+({_SIGNED})\s+(?:and|to)\s+({_SIGNED})(?:\s+together)?", r"\1 + \2"),
        (rf"\bmultiply\s+({_SIGNED})\s+(?:by|and)\s+({_SIGNED})", r"\1 * \2"),
        (rf"\bdivide\s+({_SIGNED})\s+by\s+({_SIGNED})", r"\1 / \2"),
        (rf"(?:the\s+)?difference\s+between\s+({_SIGNED})\s+and\s+({_SIGNED})", r"\1 - \2"),
        (rf"(?:the\s+)?sum\s+of\s+({_LIST})", _joined("+")),
        (rf"(?:the\s+)?product\s+of\s+({_LIST})", _joined("*")),
        (rf"(?:the\s+)?(?:average|mean)\s+of\s+({_LIST})", _average),
        # Operator words.
        (r"\b(?:multiplied\s+by|times)\b", "*"),
        (r"\b(?:divided\s+by|over)\b", "/"),
        (r"\bplus\b", "+"),
        (r"\bminus\b", "-"),
        (r"\b(?:mod|modulo)\b", "%"),
        # What is left around the expression: "what is ...?", "= ".
        (r"^\s*(?:what\s+is|calculate|compute|work\s+out)\s+", ""),
        (r"[?=.]\s*$", ""),
    )
)


def rewrite(expression: str) -> str:
    """Return ``expression`` with written operators replaced by Python's (``"12 plus 5"`` ->
    ``"12 + 5"``); an expression with none of them comes back unchanged.
    """
    for pattern, replacement in _RULES:
        expression = pattern.sub(replacement, expression)
    return expression.strip()
