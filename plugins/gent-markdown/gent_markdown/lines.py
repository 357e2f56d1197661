r"""Line rules of the ``markdown`` format: section headers, code fences, the verbatim block.

Every function here looks at one line (without its ``\n``) and is shared by the scanner and
the formatter, so that what one writes the other reads back.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from gent_core.textscan import EMPTY_ATTRIBUTES, parse_attributes

__all__ = [
    "MAX_LINE_LENGTH",
    "VERBATIM",
    "fence_close",
    "fence_open",
    "header_name",
    "needs_verbatim",
    "unwrap_verbatim",
    "verbatim_block",
]

MAX_LINE_LENGTH = 1024
"""Longest header or fence line; a longer line is always plain text."""

VERBATIM = "verbatim"
"""The info string of the code fence that :func:`verbatim_block` writes."""

_CLOSE_CANDIDATE = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*\r?$", re.MULTILINE)
_DELIMITER_LIKE = re.compile(r"^(?:#+[ \t]| {0,3}(?:```|~~~))", re.MULTILINE)
_BACKTICKS = re.compile(r"`+")


def fence_open(line: str) -> tuple[str, int, str] | None:
    """Read an opening code fence (CommonMark): up to 3 spaces, then 3 or more backticks or
    tildes, then an info string (which may not contain a backtick after backticks).

    Returns:
        ``(fence character, fence length, info string)``, or ``None``.
    """
    line = line[:-1] if line.endswith("\r") else line
    indent = len(line) - len(line.lstrip(" "))
    if indent > 3 or indent == len(line) or line[indent] not in "`~":
        return None
    char = line[indent]
    after = line[indent:].lstrip(char)
    size = len(line) - indent - len(after)
    if size < 3 or (char == "`" and "`" in after):
        return None
    return char, size, after.strip(" \t")


def fence_close(line: str, char: str, size: int) -> bool:
    """Whether ``line`` closes a fence of ``size`` ``char`` characters: up to 3 spaces, at
    least ``size`` of ``char``, then only spaces and tabs.
    """
    line = line[:-1] if line.endswith("\r") else line
    indent = len(line) - len(line.lstrip(" "))
    if indent > 3:
        return False
    after = line[indent:].lstrip(char)
    return len(line) - indent - len(after) >= size and not after.strip(" \t")


def header_name(
    rest: str, names: Mapping[str, str | None]
) -> tuple[bool, str | None, Mapping[str, str]]:
    r"""Read what follows ``#`` and a space on a header line.

    Accepted: the name (any case), then optionally an attribute block ``{key="value" ...}``,
    then optionally ``:``, with spaces or tabs anywhere in between.

    Args:
        rest: The line after the ``#`` run and its first space (no ``\n``).
        names: Lower-cased name -> registered name (``None`` for a name that only ends the
            previous section, such as the observation).

    Returns:
        ``(is a header, registered name, attributes)``.
    """
    text = rest[:-1] if rest.endswith("\r") else rest
    text = text.strip(" \t")
    if text.endswith(":"):
        text = text[:-1].rstrip(" \t")
    attributes: Mapping[str, str] = EMPTY_ATTRIBUTES
    if text.endswith("}"):
        brace = text.find("{")
        if brace > 0:
            parsed = parse_attributes(text[brace + 1 : -1])
            if parsed is not None:
                attributes = parsed or EMPTY_ATTRIBUTES
                text = text[:brace].rstrip(" \t")
    key = text.lower()
    if key in names:
        return True, names[key], attributes
    return False, None, EMPTY_ATTRIBUTES


def needs_verbatim(content: str) -> bool:
    """Whether ``content`` has a line that could read as a header (``#``... and a space) or
    a code fence, and must therefore be written in a verbatim block.
    """
    return _DELIMITER_LIKE.search(content) is not None


def verbatim_block(content: str) -> str:
    """Wrap ``content`` in a backtick fence longer than any backtick run inside it, with the
    info string ``verbatim``.
    """
    longest = max((len(run) for run in _BACKTICKS.findall(content)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{VERBATIM}\n{content}\n{fence}"


def unwrap_verbatim(raw: str) -> str:
    """Return a section's text from its raw text, a verbatim block undone, *not* trimmed.

    When the raw text (ignoring surrounding blank space) is exactly one fenced code block
    whose info string is ``verbatim``, the text is what is inside the fence (its last line
    end included); otherwise it is the raw text as it is.
    """
    body = raw.rstrip()
    first = len(body) - len(body.lstrip())
    if first >= len(body) or body[first] not in "`~":
        return raw
    first_end = body.find("\n", first)
    if first_end < 0:
        return raw
    line_start = body.rfind("\n", 0, first) + 1
    if first_end - line_start > MAX_LINE_LENGTH:
        return raw
    opened = fence_open(body[line_start:first_end])
    if opened is None or opened[2] != VERBATIM:
        return raw
    char, size, _ = opened
    for match in _CLOSE_CANDIDATE.finditer(body, first_end + 1):
        run = match.group(1)
        if run[0] != char or len(run) < size or match.end() - match.start() > MAX_LINE_LENGTH:
            continue
        if match.end() != len(body):
            return raw
        return body[first_end + 1 : match.start()]
    return raw
