"""Keep expressions too deep for the parser away from it.

A literal-only call nests only through brackets, which the scanner bounds. An expression can
also nest without brackets: ``1+1+1...``, ``- - -1``, ``not not x``, ``a.b.c...``, ``f()()()``,
``lambda: lambda: ...``. Python 3.11 and later refuse such input with a ``RecursionError``
(an error for the model), but Python 3.10's parser converts its tree to Python objects without
a depth check and can overflow the C stack and crash the process.

On Python 3.10 (:data:`GUARD_NEEDED`), each level of such nesting needs at least one
character outside strings and comments, so a call with few of them is safe to parse as it is.
A larger call is tokenized first (linear, no recursion) and refused when it holds more than
:data:`MAX_EXPRESSION_TOKENS` tokens that no literal needs: operators other than a minus sign
before a number, names other than keyword argument names and
``True``/``False``/``None``/``true``/``false``/``null``, and brackets that call or index
something.
"""

from __future__ import annotations

import io
import sys
import tokenize

__all__ = ["GUARD_NEEDED", "MAX_EXPRESSION_TOKENS", "SAFE_CODE_CHARS", "first_excess_token"]

GUARD_NEEDED = sys.version_info < (3, 11)
"""Whether this Python's parser needs the guard (3.10: no depth check in the parser's tree
conversion; later versions raise ``RecursionError`` or ``MemoryError``, which are caught)."""

SAFE_CODE_CHARS = 10_000
"""Calls with at most this many characters outside strings and comments are parsed as they
are (their trees cannot be deeper)."""

MAX_EXPRESSION_TOKENS = 1_000
"""Most tokens no literal needs in one call (beyond it, the call is refused unparsed)."""

_CONSTANTS = frozenset({"True", "False", "None", "true", "false", "null"})
_OPENERS = frozenset("([{")
_CLOSERS = frozenset(")]}")
_VALUE_STARTS = frozenset({"(", "[", "{", ",", ":", "=", "**"})
_SKIPPED = frozenset(
    {tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT}
)


def _free(token: tokenize.TokenInfo, previous: tokenize.TokenInfo | None, level: int) -> str:
    """Whether a literal call needs ``token``: ``"yes"``, ``"no"``, or ``"next"`` when the
    next token decides (a minus before a number, a name before ``=``).
    """
    text = token.string
    if previous is None or token.type in (tokenize.STRING, tokenize.NUMBER):
        return "yes"  # the called name, and values themselves
    if text in (",", ":") or text in _CLOSERS:
        return "yes"
    value_start = previous.string in _VALUE_STARTS
    if text in _OPENERS:
        own_parenthesis = level == 0 and previous.type == tokenize.NAME
        return "yes" if value_start or own_parenthesis else "no"
    if text == "-":
        return "next" if value_start else "no"
    if token.type == tokenize.NAME:
        if text in _CONSTANTS and value_start:
            return "yes"
        return "next" if level == 1 and previous.string in ("(", ",") else "no"
    if text == "**":
        return "yes" if level == 1 and previous.string in ("(", ",") else "no"
    if text == "=":
        return "yes" if level == 1 and previous.type == tokenize.NAME else "no"
    return "no"


def first_excess_token(source: str, limit: int = MAX_EXPRESSION_TOKENS) -> tuple[int, int] | None:
    """The position (1-based line, 0-based column) of the first token of ``source`` beyond
    ``limit`` tokens that no literal needs, or ``None`` when there are at most ``limit``.

    ``source`` is one call, ``name(...)``.

    Raises:
        SyntaxError: When ``source`` cannot be tokenized.
    """
    count = 0
    level = 0
    previous: tokenize.TokenInfo | None = None
    pending: tokenize.TokenInfo | None = None  # a minus or a name the next token decides on
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type in _SKIPPED or token.type == tokenize.ENDMARKER:
                continue
            if pending is not None:
                negative = pending.string == "-" and token.type == tokenize.NUMBER
                keyword = pending.string != "-" and token.string == "=" and level == 1
                if not (negative or keyword):
                    count += 1
                    if count > limit:
                        return pending.start
                pending = None
            needed = _free(token, previous, level)
            if needed == "next":
                pending = token
            elif needed == "no":
                count += 1
                if count > limit:
                    return token.start
            if token.string in _OPENERS:
                level += 1
            elif token.string in _CLOSERS:
                level -= 1
            previous = token
    except tokenize.TokenError as error:
        raise SyntaxError(str(error.args[0])) from None
    return None
