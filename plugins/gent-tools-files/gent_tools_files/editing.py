"""Planning an exact-match edit: where ``old_text`` occurs, the new content, clear errors.

:func:`plan_edit` works on the file's bytes and returns the bytes to write, so the rules of
``edit_file`` are testable without a file:

* the file is decoded as UTF-8 with ``surrogateescape``: bytes that are not UTF-8 are carried
  through unchanged;
* a UTF-8 byte-order mark is kept and is not part of the text matched;
* in a file whose line endings are all CRLF, ``old_text`` and ``new_text`` written with plain
  newlines match and are written with CRLF;
* occurrences are counted without overlap (as :meth:`str.replace` replaces them);
* the size of the new content is worked out from the count before it is built, so an edit
  past the byte cap (``replace_all`` of a short text by a long one) is refused without
  building it.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from gent_tools_files.atomic import check_write_size
from gent_tools_files.errors import EditMatchError

__all__ = ["EXCERPT_LINES", "EditPlan", "plan_edit"]

EXCERPT_LINES = 30
"""Lines of the edited region shown after an edit, at most."""

_EXCERPT_LINE_CHARS = 200
_NUMBERED = re.compile(r"^\s*\d+[:|\t] ?")
_SIZE_HINT = (
    "Replace fewer occurrences at once (expected_replacements, or an old_text that matches "
    "only some), or use a shorter new_text."
)
_MATCH_HINT = (
    "old_text must match the file exactly, whitespace and line breaks included: read the "
    "lines with read_file (line_numbers: true) and copy them, without the line numbers."
)


@dataclass(frozen=True)
class EditPlan:
    """The outcome of a successful edit plan.

    Attributes:
        data: The file's new bytes.
        lines: The line (in the old file) where each replaced occurrence started.
        excerpt: Numbered lines of the new file around the first replacement.
    """

    data: bytes
    lines: list[int]
    excerpt: list[tuple[int, str]]


def _occurrences(text: str, old: str) -> list[int]:
    positions: list[int] = []
    start = text.find(old)
    while start >= 0:
        positions.append(start)
        start = text.find(old, start + len(old))
    return positions


def _line_numbers(text: str, positions: list[int]) -> list[int]:
    numbers: list[int] = []
    line, counted = 1, 0
    for position in positions:
        line += text.count("\n", counted, position)
        counted = position
        numbers.append(line)
    return numbers


def _list_lines(lines: list[int]) -> str:
    shown = ", ".join(str(line) for line in lines[:20])
    return shown + (f" and {len(lines) - 20} more" if len(lines) > 20 else "")


def _near_misses(text: str, old: str) -> list[str]:
    """Sentences about text that almost matches ``old``, to help the model correct it."""
    notes: list[str] = []
    wanted = [" ".join(line.split()) for line in old.strip("\n").split("\n")]
    if all(_NUMBERED.match(line) for line in old.strip("\n").split("\n")):
        notes.append("old_text seems to start its lines with line numbers: leave them out.")
    file_lines = text.split("\n")
    stripped = [" ".join(line.split()) for line in file_lines]
    loose = [
        index + 1
        for index, line in enumerate(stripped)
        if line == wanted[0] and stripped[index : index + len(wanted)] == wanted
    ]
    if loose:
        notes.append(
            "Text that differs only in whitespace (indentation, spaces, tabs) starts at "
            f"line {_list_lines(loose)}."
        )
    elif (position := text.lower().find(old.lower())) >= 0:
        line = text.count("\n", 0, position) + 1
        notes.append(f"Text that differs only in letter case starts at line {line}.")
    elif wanted[0]:
        starts = [index + 1 for index, line in enumerate(stripped) if wanted[0] in line]
        if starts:
            notes.append(f"Its first line appears at line {_list_lines(starts)}.")
    return notes


def _excerpt(text: str, first_line: int, new: str) -> list[tuple[int, str]]:
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    start = max(first_line - 2, 1)
    end = min(first_line + new.count("\n") + 2, len(lines), start + EXCERPT_LINES - 1)
    shown = []
    for number in range(start, end + 1):
        line = lines[number - 1].removesuffix("\r")
        line = line.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        if len(line) > _EXCERPT_LINE_CHARS:
            line = line[:_EXCERPT_LINE_CHARS] + "..."
        shown.append((number, line))
    return shown


def _edited_size(size: int, count: int, old: str, new: str, crlf: bool) -> int:
    """The bytes of the file after ``count`` replacements of ``old`` by ``new``, without
    building it (``old`` matched text decoded with ``surrogateescape``, so it encodes back).
    """
    old_bytes = len(old.encode("utf-8", "surrogateescape"))
    new_bytes = len(new.encode("utf-8", "surrogateescape"))
    if crlf:  # every newline of both is written as CRLF
        old_bytes += old.count("\n")
        new_bytes += new.count("\n")
    return size + count * (new_bytes - old_bytes)


def plan_edit(
    data: bytes,
    old: str,
    new: str,
    *,
    replace_all: bool,
    expected: int | None,
    tool: str,
    path: str,
    max_bytes: int,
) -> EditPlan:
    """Replace ``old`` with ``new`` in the file content ``data``.

    Args:
        data: The file's bytes.
        old: The exact text to replace (not empty).
        new: Its replacement.
        replace_all: Replace every occurrence (otherwise exactly one must exist).
        expected: The exact number of occurrences there must be (then all are replaced).
        tool: The tool's name, for errors.
        path: The file's path, for errors.
        max_bytes: The most bytes the new content may have (``max_file_bytes``).

    Raises:
        EditMatchError: ``old`` does not occur (with hints about near misses), occurs more
            than once when one was expected, or not ``expected`` times; it lists the lines.
        FileToolError: The new content would be larger than ``max_bytes`` (it is not built).
    """
    bom = codecs.BOM_UTF8 if data.startswith(codecs.BOM_UTF8) else b""
    text = data[len(bom) :].decode("utf-8", "surrogateescape")
    crlf = "\r\n" in text and text.count("\r\n") == text.count("\n") and "\r" not in old + new
    if crlf:
        text = text.replace("\r\n", "\n")
    lines = _line_numbers(text, _occurrences(text, old))
    count = len(lines)
    _check_occurrences(
        text, old, lines, replace_all=replace_all, expected=expected, tool=tool, path=path
    )
    check_write_size(
        _edited_size(len(data), count, old, new, crlf),
        max_bytes,
        tool=tool,
        path=path,
        option="max_file_bytes",
        hint=_SIZE_HINT,
    )
    edited = text.replace(old, new)
    excerpt = _excerpt(edited, lines[0], new)
    if crlf:
        edited = edited.replace("\n", "\r\n")
    return EditPlan(bom + edited.encode("utf-8", "surrogateescape"), lines, excerpt)


def _check_occurrences(
    text: str,
    old: str,
    lines: list[int],
    *,
    replace_all: bool,
    expected: int | None,
    tool: str,
    path: str,
) -> None:
    """Refuse an edit whose ``old`` occurs in ``text`` a number of times the call did not ask
    for: never, other than ``expected`` times, or more than once without ``replace_all``.
    ``lines`` are the lines where the occurrences start.

    Raises:
        EditMatchError: Saying how often and on which lines ``old`` occurs, and what to do.
    """
    count = len(lines)
    if count == 0:
        notes = _near_misses(text, old)
        raise EditMatchError(
            " ".join([f"old_text was not found in {path!r}; nothing was changed.", *notes]),
            tool=tool,
            path=path,
            count=0,
            lines=[],
            hint=_MATCH_HINT,
        )
    times = f"{count} time{'s' if count > 1 else ''} (line{'s' if count > 1 else ''} "
    times += _list_lines(lines) + ")"
    if expected is not None and count != expected:
        raise EditMatchError(
            f"old_text occurs {times} in {path!r}, not {expected} as expected_replacements "
            "says; nothing was changed.",
            tool=tool,
            path=path,
            count=count,
            lines=lines,
            hint=f"Set expected_replacements to {count} to replace them all, or change "
            "old_text to pick the ones you mean.",
        )
    if count > 1 and expected is None and not replace_all:
        raise EditMatchError(
            f"old_text occurs {times} in {path!r}; nothing was changed.",
            tool=tool,
            path=path,
            count=count,
            lines=lines,
            hint="Include more of the surrounding lines in old_text so it occurs once, or set "
            f"replace_all to true (or expected_replacements to {count}) to replace them all.",
        )
