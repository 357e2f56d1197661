"""Showing the clipboard (what tools leave for the model) to the model: text entries, and
files read fresh.

The clipboard is shown after every observation, so reading it must be cheap and safe
whatever a tool put on it:

* files are read **off the event loop** (one worker-thread hand-off per step), only when they
  are **regular files** (a FIFO, a device or a directory is named, never opened for reading,
  so it cannot hang the run), and **with a bound**: at most :data:`MAX_FILE_CHARS` characters
  (about four bytes each) are read, however large the file;
* paths are checked again when read, by the toolkit's :class:`~gent_core._workspace.Workspace`
  (the file tools' rules): a file replaced by a link out of the working directory, or by a
  link loop, is refused with a reason, and the file is opened without following a link;
* the whole clipboard shown is bounded by ``Limits.max_clipboard_chars``: the newest entries
  are shown first, and older entries that no longer fit are **removed** from the clipboard,
  with a note saying so.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from gent_core._file_errors import FileToolError, PathRejectedError
from gent_core._workspace import Workspace, describe_mode
from gent_core.context import Clipboard, ClipboardEntry
from gent_core.formats import TextFormat
from gent_core.sections import FormattedSection
from gent_core.tools._threads import run_sync

__all__ = [
    "MAX_FILE_CHARS",
    "ClipboardView",
    "clipboard_from_records",
    "clipboard_records",
    "format_clipboard",
    "read_clipboard",
    "read_clipboard_file",
    "render_clipboard",
]

MAX_FILE_CHARS = 8_000
"""Characters of one clipboard file shown to the model; the rest is cut with a note."""

_BYTES_PER_CHAR = 4  # the most a UTF-8 character takes


def read_clipboard_file(path: Path, working_directory: Path, limit: int = MAX_FILE_CHARS) -> str:
    """Read at most ``limit`` characters of a clipboard file; never raises, never blocks on a
    FIFO.

    The path is resolved and the file opened by the toolkit's
    :class:`~gent_core._workspace.Workspace` (links judged before anything goes through
    them, the file opened without following a link and checked again once open).

    Returns:
        The text (cut with a note when the file is longer), or a parenthesised reason when
        the file cannot be shown: refused, missing, not a regular file, unreadable.
    """
    try:
        workspace = Workspace(working_directory, tool="clipboard")
        target = workspace.resolve(os.fspath(path))
        if target.stat is None:
            return "(the file no longer exists)"
        if not target.is_file:
            return f"(not read: it is a {describe_mode(target.stat.st_mode)}, not a regular file)"
        fd = workspace.open_file(target)
    except PathRejectedError as refused:
        return f"(refused: {refused.problem.rstrip('.')})"
    except FileToolError as error:
        return f"(cannot read the file: {error.model_message.rstrip('.')})"
    try:
        with os.fdopen(fd, "rb") as file:
            info = os.fstat(file.fileno())
            data = file.read(max(limit, 0) * _BYTES_PER_CHAR + _BYTES_PER_CHAR)
    except (OSError, ValueError) as error:
        return f"(cannot read the file: {getattr(error, 'strerror', None) or error})"
    text = data.decode("utf-8", errors="replace")
    if len(text) <= limit and len(data) >= info.st_size:
        return text
    shown = text[:limit]
    rest = max(info.st_size - len(shown.encode("utf-8", errors="replace")), 0)
    return f"{shown}\n[... about {rest} more bytes cut]"


@dataclass(frozen=True)
class ClipboardView:
    """What one step shows of the clipboard.

    Attributes:
        shown: The entries shown, in clipboard order, with their text (a file's text
            starts with its path).
        removed: How many older entries did not fit in the size limit (and were removed).
        limit: The size limit, in characters.
    """

    shown: tuple[tuple[ClipboardEntry, str], ...]
    removed: int
    limit: int


def _collect(entries: list[ClipboardEntry], working_directory: Path, limit: int) -> ClipboardView:
    """Read the entries newest first within ``limit`` characters (runs in a worker thread)."""
    remaining = limit
    shown: list[tuple[ClipboardEntry, str]] = []
    removed = 0
    for entry in reversed(entries):
        if remaining <= 0:
            removed += 1
            continue
        if entry.path is not None:
            header = f"path: {entry.path}\n"
            body = header + read_clipboard_file(
                entry.path, working_directory, min(MAX_FILE_CHARS, remaining - len(header))
            )
        else:
            body = entry.text or ""
            if len(body) > remaining:
                body = f"{body[:remaining]}\n[... {len(body) - remaining} more characters cut]"
        remaining -= len(body)
        shown.append((entry, body))
    shown.reverse()
    return ClipboardView(tuple(shown), removed, limit)


async def read_clipboard(
    clipboard: Clipboard, working_directory: Path, limit: int
) -> ClipboardView:
    """Read what the clipboard shows this step, in a worker thread, and remove from it the
    older entries that no longer fit in ``limit`` characters.
    """
    if not clipboard.entries:
        return ClipboardView((), 0, limit)
    view = await run_sync(_collect, list(clipboard.entries), working_directory, limit)
    if view.removed:
        kept = {id(entry) for entry, _ in view.shown}
        clipboard.entries[:] = [entry for entry in clipboard.entries if id(entry) in kept]
    return view


def format_clipboard(view: ClipboardView, text_format: TextFormat) -> str:
    """Write a :class:`ClipboardView` as a ``clipboard`` section (``""`` when empty)."""
    children = [
        FormattedSection("file" if entry.path is not None else "text", body)
        for entry, body in view.shown
    ]
    if not children:
        return ""
    if view.removed:
        note = (
            f"{view.removed} older clipboard entr{'y was' if view.removed == 1 else 'ies were'} "
            f"removed: the clipboard shows at most {view.limit} characters."
        )
        children.insert(0, FormattedSection("note", note))
    return text_format.format_sections([FormattedSection("clipboard", children=children)])


async def render_clipboard(
    clipboard: Clipboard,
    working_directory: Path,
    text_format: TextFormat,
    limit: int,
) -> str:
    """Read and render the clipboard as a ``clipboard`` section (``""`` when it is empty).

    See :func:`read_clipboard` (which may remove old entries) and :func:`format_clipboard`.
    """
    return format_clipboard(await read_clipboard(clipboard, working_directory, limit), text_format)


def clipboard_records(clipboard: Clipboard) -> list[dict[str, str]]:
    """The clipboard as JSON-ready records (for the transcript)."""
    records = []
    for entry in clipboard.entries:
        if entry.path is not None:
            records.append({"path": str(entry.path), "source": entry.source})
        else:
            records.append({"text": entry.text or "", "source": entry.source})
    return records


def clipboard_from_records(records: list[dict[str, str]]) -> Clipboard:
    """Rebuild a clipboard from :func:`clipboard_records` output."""
    clipboard = Clipboard()
    for record in records:
        if "path" in record:
            clipboard.entries.append(
                ClipboardEntry(path=Path(record["path"]), source=record.get("source", ""))
            )
        else:
            clipboard.entries.append(
                ClipboardEntry(text=record.get("text", ""), source=record.get("source", ""))
            )
    return clipboard
