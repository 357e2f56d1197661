r"""A small tolerant JSON parser for what models write when they mean JSON.

Beyond strict JSON it accepts:

* single-quoted strings (``'text'``) besides double-quoted ones;
* Python literals ``True``, ``False`` and ``None`` besides ``true``, ``false``, ``null``;
* trailing commas before ``}`` and ``]``;
* raw newlines and tabs inside strings; Python's ``\xNN`` and ``\UNNNNNNNN`` escapes; and
  unknown escapes such as ``\d`` (kept as written).

Nothing else is guessed: keys must be quoted, values must be JSON values. The parser is a
tokenizer plus a recursive-descent reader with a nesting limit; it never calls ``eval`` and
runs in time linear in the input. Integers longer than
:data:`~gent_core.bounds.MAX_INT_DIGITS` digits are refused rather than converted.
"""

from __future__ import annotations

import re
from typing import Any

from gent_core.bounds import MAX_DEPTH as VALUE_MAX_DEPTH
from gent_core.bounds import MAX_INT_DIGITS

__all__ = ["MAX_DEPTH", "TolerantJSONError", "loads"]

MAX_DEPTH = VALUE_MAX_DEPTH + 3
"""Deepest nesting of objects and lists accepted: arguments may nest
:data:`gent_core.bounds.MAX_DEPTH` levels inside a list of calls, a call object and an
OpenAI-style ``function`` wrapper."""

_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_WORD = re.compile(r"-?[A-Za-z_][A-Za-z0-9_]*")
_SPACE = re.compile(r"[ \t\r\n]*")
_ESCAPES = {
    '"': '"',
    "'": "'",
    "\\": "\\",
    "/": "/",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
}
_WORDS: dict[str, Any] = {
    "true": True,
    "True": True,
    "false": False,
    "False": False,
    "null": None,
    "None": None,
    "NaN": float("nan"),
    "Infinity": float("inf"),
    "-Infinity": float("-inf"),
}
_PYTHON_HEX = {"x": 2, "U": 8}
_HEX = frozenset("0123456789abcdefABCDEF")
_STRING_STOP = {'"': re.compile(r'[\\"]'), "'": re.compile(r"[\\']")}


class TolerantJSONError(ValueError):
    """The text is not JSON even under the tolerant rules.

    Attributes:
        reason: What was wrong (``"expected ',' or '}'"``).
        offset: 0-based offset in the parsed text where it went wrong.
    """

    def __init__(self, reason: str, offset: int) -> None:
        self.reason = reason
        self.offset = offset
        super().__init__(f"{reason} (offset {offset})")


def _is_hex(text: str, start: int, count: int) -> bool:
    digits = text[start : start + count]
    return len(digits) == count and all(char in _HEX for char in digits)


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.position = 0

    def skip_space(self) -> None:
        found = _SPACE.match(self.text, self.position)
        if found is not None:
            self.position = found.end()

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.position] if self.position < len(self.text) else ""

    def fail(self, reason: str) -> TolerantJSONError:
        return TolerantJSONError(reason, self.position)

    def value(self, depth: int) -> Any:
        char = self.peek()
        if not char:
            raise self.fail("unexpected end of text, expected a value")
        if char == "{":
            return self.obj(depth + 1)
        if char == "[":
            return self.array(depth + 1)
        if char in "\"'":
            return self.string()
        number = _NUMBER.match(self.text, self.position)
        word = _WORD.match(self.text, self.position)
        if word is not None and word.group() in _WORDS:
            self.position = word.end()
            return _WORDS[word.group()]
        if number is not None:
            literal = number.group()
            if len(literal.lstrip("-")) > MAX_INT_DIGITS and not any(m in literal for m in ".eE"):
                raise self.fail(
                    f"a number has more than {MAX_INT_DIGITS} digits (write it as a string)"
                )
            self.position = number.end()
            if any(mark in literal for mark in ".eE"):
                return float(literal)
            return int(literal)
        if word is not None:
            raise self.fail(f"unexpected word {word.group()!r}, expected a value")
        raise self.fail(f"unexpected character {char!r}, expected a value")

    def obj(self, depth: int) -> dict[str, Any]:
        if depth > MAX_DEPTH:
            raise self.fail(f"nested too deeply (values may nest at most {VALUE_MAX_DEPTH} levels)")
        self.position += 1  # "{"
        result: dict[str, Any] = {}
        while True:
            char = self.peek()
            if char == "}":
                self.position += 1
                return result
            if char not in ("'", '"'):
                raise self.fail("expected a quoted key or '}'")
            key = self.string()
            if self.peek() != ":":
                raise self.fail(f"expected ':' after the key {key!r}")
            self.position += 1
            result[key] = self.value(depth)
            char = self.peek()
            if char == ",":
                self.position += 1
            elif char != "}":
                raise self.fail("expected ',' or '}' after an object member")

    def array(self, depth: int) -> list[Any]:
        if depth > MAX_DEPTH:
            raise self.fail(f"nested too deeply (values may nest at most {VALUE_MAX_DEPTH} levels)")
        self.position += 1  # "["
        result: list[Any] = []
        while True:
            if self.peek() == "]":
                self.position += 1
                return result
            result.append(self.value(depth))
            char = self.peek()
            if char == ",":
                self.position += 1
            elif char != "]":
                raise self.fail("expected ',' or ']' after a list item")

    def string(self) -> str:
        text = self.text
        quote = text[self.position]
        start = self.position
        stop = _STRING_STOP[quote]
        parts: list[str] = []
        position = start + 1
        while True:
            found = stop.search(text, position)
            if found is None:
                self.position = start
                raise self.fail("unterminated string")
            parts.append(text[position : found.start()])
            if found.group() == quote:
                self.position = found.end()
                return "".join(parts)
            escape = text[found.end() : found.end() + 1]
            position = found.end() + 1
            if escape in _ESCAPES:
                parts.append(_ESCAPES[escape])
            elif escape == "u":
                code, position = self._unicode(found.end() + 1)
                parts.append(code)
            elif escape in _PYTHON_HEX and _is_hex(text, position, _PYTHON_HEX[escape]):
                digits = _PYTHON_HEX[escape]
                code_point = int(text[position : position + digits], 16)
                if code_point > 0x10FFFF:
                    self.position = found.start()
                    raise self.fail("invalid \\U escape, beyond the last code point")
                parts.append(chr(code_point))
                position += digits
            else:
                parts.append("\\" + escape)  # unknown escape: keep it as written

    def _unicode(self, position: int) -> tuple[str, int]:
        digits = self.text[position : position + 4]
        if len(digits) != 4 or not all(c in "0123456789abcdefABCDEF" for c in digits):
            self.position = position
            raise self.fail("invalid \\u escape, expected four hex digits")
        code = int(digits, 16)
        position += 4
        follow = self.text[position : position + 6]
        if 0xD800 <= code < 0xDC00 and follow.startswith("\\u"):
            low = follow[2:]
            if len(low) == 4 and all(c in "0123456789abcdefABCDEF" for c in low):
                low_code = int(low, 16)
                if 0xDC00 <= low_code < 0xE000:
                    pair = 0x10000 + ((code - 0xD800) << 10) + (low_code - 0xDC00)
                    return chr(pair), position + 6
        return chr(code), position


def loads(text: str) -> Any:
    """Parse ``text`` as one tolerant JSON value.

    Raises:
        TolerantJSONError: Saying what was expected and where.
    """
    reader = _Reader(text)
    value = reader.value(0)
    if reader.peek():
        raise reader.fail("unexpected text after the value")
    return value
