"""Markdown code fences around calls: find the fenced blocks of a text.

A fence is a line that starts, at column 0, with three or more backticks (or tildes),
optionally followed by a language tag (```` ```yaml ````). A block runs to the next fence
line made of the same character only, at column 0, or to the end of the text. Indented
fence-like lines are content (for example a Markdown file inside a YAML block scalar).
"""

from __future__ import annotations

__all__ = ["fenced_blocks", "is_blank"]


def _fence_char(line: str) -> str | None:
    for char in "`~":
        if line.startswith(char * 3):
            return char
    return None


def fenced_blocks(text: str) -> list[str] | None:
    """Return the contents of every fenced block in ``text``, or ``None`` without fences.

    Each block's lines end with a newline, as they would in a file.
    """
    blocks: list[str] = []
    current: list[str] | None = None
    opener = ""
    for line in text.splitlines():
        if current is None:
            char = _fence_char(line)
            if char is not None:
                current, opener = [], char
            continue
        stripped = line.rstrip()
        if stripped and set(stripped) == {opener} and len(stripped) >= 3:
            blocks.append("".join(line + "\n" for line in current))
            current = None
            continue
        current.append(line)
    if current is not None:
        blocks.append("".join(line + "\n" for line in current))
    return blocks if (blocks or current is not None) else None


def is_blank(text: str) -> bool:
    """Whether ``text`` holds nothing but whitespace and fence lines (no content at all)."""
    return all(not line.strip() or _fence_char(line.strip()) for line in text.splitlines())
