"""Find candidate JSON spans in free text with one linear, string-aware bracket scan.

The scanner looks for ``{``/``[`` openers and matches them with their closers, skipping
brackets inside strings. It reports the *maximal* balanced spans (those not inside another
balanced span), each with the maximal spans nested in it, and the openers that never closed.
An opener in prose that never closes ("use { to open") therefore cannot swallow a real call
written after it: the call is a balanced span of its own; and a call inside a pair of prose
braces is still found among that pair's children.

Strings are recognised only where JSON (or a Python literal) can start one: after ``{``,
``[``, ``,`` or ``:``. An apostrophe in prose ("don't") is thus never taken for a string.

Every character is visited a bounded number of times (jumps use single-character-class
searches, which cannot backtrack), so the scan is linear in the length of the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Scan", "Span", "scan"]

_OPENER = re.compile(r"[{\[]")
_STRUCTURE = re.compile(r"[{}\[\]\"']")
_IN_DOUBLE = re.compile(r'[\\"]')
_IN_SINGLE = re.compile(r"[\\']")
_PAIRS = {"}": "{", "]": "["}
_STRING_STARTERS = frozenset("{[,:")
_WHITESPACE = frozenset(" \t\r\n")


@dataclass(frozen=True)
class Span:
    """A balanced bracket span ``text[start:end]`` (``end`` exclusive).

    Attributes:
        start: Offset of the opener.
        end: Offset just past the closer.
        children: The maximal balanced spans strictly inside this one, in order.
    """

    start: int
    end: int
    children: tuple[Span, ...] = ()


@dataclass(frozen=True)
class Scan:
    """What :func:`scan` found.

    Attributes:
        spans: The maximal balanced spans, in order of appearance.
        unclosed: Offsets of openers that never closed, outermost first.
        open_string: Offset of a string that was still open at the end, or ``None``.
    """

    spans: tuple[Span, ...]
    unclosed: tuple[int, ...]
    open_string: int | None


def _starts_string(text: str, quote_at: int) -> bool:
    """Whether the quote at ``quote_at`` is where a JSON value or key may start."""
    index = quote_at - 1
    while index >= 0 and text[index] in _WHITESPACE:
        index -= 1
    return index >= 0 and text[index] in _STRING_STARTERS


def _string_end(text: str, quote_at: int) -> int | None:
    """Return the offset just past the string opened at ``quote_at``, or ``None``."""
    finder = _IN_DOUBLE if text[quote_at] == '"' else _IN_SINGLE
    position = quote_at + 1
    while True:
        found = finder.search(text, position)
        if found is None:
            return None
        if found.group() == "\\":
            position = found.end() + 1
            continue
        return found.end()


def scan(text: str) -> Scan:
    """Scan ``text`` once and return its balanced bracket spans and unclosed openers."""
    stack: list[tuple[int, str]] = []
    open_counts = {"{": 0, "[": 0}
    spans: list[Span] = []
    position = 0
    length = len(text)
    while position < length:
        if not stack:
            found = _OPENER.search(text, position)
            if found is None:
                break
            stack.append((found.start(), found.group()))
            open_counts[found.group()] += 1
            position = found.end()
            continue
        found = _STRUCTURE.search(text, position)
        if found is None:
            break
        char = found.group()
        position = found.end()
        if char in "\"'":
            if not _starts_string(text, found.start()):
                continue
            end = _string_end(text, found.start())
            if end is None:
                return Scan(tuple(spans), tuple(start for start, _ in stack), found.start())
            position = end
        elif char in "{[":
            stack.append((found.start(), char))
            open_counts[char] += 1
        else:
            opener = _PAIRS[char]
            if open_counts[opener] == 0:
                continue  # a stray closer: prose
            while True:  # pop openers left unclosed inside this pair, then the pair itself
                start, kind = stack.pop()
                open_counts[kind] -= 1
                if kind == opener:
                    break
            inner: list[Span] = []
            while spans and spans[-1].start >= start:
                inner.append(spans.pop())  # spans inside this one are its children
            inner.reverse()
            spans.append(Span(start, position, tuple(inner)))
    return Scan(tuple(spans), tuple(start for start, _ in stack), None)
