"""Written arithmetic read as an expression: ``"9876 minus 6789"``, ``"2^10"``,
``"17% of 240"``, ``"the square root of 2025"``, a multiplication sign for ``*``.

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

__all__ = ["rewrite"]

_NUMBER = r"\d+(?:\.\d+)?"

_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
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
        # Operator words.
        (r"\b(?:multiplied\s+by|times)\b", "*"),
        (r"\b(?:divided\s+by|over)\b", "/"),
        (r"\bplus\b", "+"),
        (r"\bminus\b", "-"),
        (r"\b(?:mod|modulo)\b", "%"),
        # What is left around the expression: "what is ...?", "= ".
        (r"^\s*(?:what\s+is|calculate|compute)\s+", ""),
        (r"[?=]\s*$", ""),
    )
)


def rewrite(expression: str) -> str:
    """Return ``expression`` with written operators replaced by Python's (``"12 plus 5"`` ->
    ``"12 + 5"``); an expression with none of them comes back unchanged.
    """
    for pattern, replacement in _RULES:
        expression = pattern.sub(replacement, expression)
    return expression.strip()
