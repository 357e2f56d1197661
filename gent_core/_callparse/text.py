"""Small text helpers shared by the call readers: quoting snippets and locating offsets."""

from __future__ import annotations

__all__ = ["line_column", "quote_end", "quote_start", "snippet_at"]

_QUOTE_CHARS = 60


def _one_line(text: str) -> str:
    return " ".join(text.split())


def quote_start(text: str, limit: int = _QUOTE_CHARS) -> str:
    """Return the start of ``text`` on one line, cut to ``limit`` characters with ``...``."""
    flat = _one_line(text)
    return flat if len(flat) <= limit else flat[:limit] + "..."


def quote_end(text: str, limit: int = _QUOTE_CHARS // 2) -> str:
    """Return the end of ``text`` on one line, cut to ``limit`` characters after ``...``."""
    flat = _one_line(text)
    return flat if len(flat) <= limit else "..." + flat[-limit:]


def snippet_at(text: str, offset: int, radius: int = 20) -> str:
    """Return the text around ``offset`` on one line (for "near `...`" messages)."""
    start = max(0, offset - radius)
    end = min(len(text), offset + radius)
    prefix = "..." if start > 0 else ""
    suffix = "..." if end < len(text) else ""
    return prefix + _one_line(text[start:end]) + suffix


def line_column(text: str, offset: int) -> tuple[int, int]:
    """Return the 1-based line and column of ``offset`` in ``text``."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column
