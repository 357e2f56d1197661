"""Showing the clipboard (seed 004) to the model: text entries and files read fresh."""

from __future__ import annotations

from pathlib import Path

from gent_core.context import Clipboard, ClipboardEntry
from gent_core.formats import TextFormat
from gent_core.sections import FormattedSection

__all__ = ["MAX_FILE_CHARS", "clipboard_from_records", "clipboard_records", "render_clipboard"]

MAX_FILE_CHARS = 8_000
"""Characters of one clipboard file shown to the model; the rest is cut with a note."""


def _read(entry_path: Path, working_directory: Path) -> str:
    root = working_directory.resolve()
    path = (working_directory / entry_path).resolve()
    if not path.is_relative_to(root):
        return "(refused: the file is outside the working directory)"
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return "(the file no longer exists)"
    except OSError as error:
        return f"(cannot read the file: {error.strerror or error})"
    if len(text) > MAX_FILE_CHARS:
        cut = len(text) - MAX_FILE_CHARS
        text = f"{text[:MAX_FILE_CHARS]}\n[... {cut} more characters cut]"
    return text


def render_clipboard(clipboard: Clipboard, working_directory: Path, text_format: TextFormat) -> str:
    """Render the clipboard as a ``clipboard`` section (empty string when it is empty)."""
    children = []
    for entry in clipboard.entries:
        if entry.path is not None:
            body = f"path: {entry.path}\n{_read(entry.path, working_directory)}"
            children.append(FormattedSection("file", body))
        else:
            children.append(FormattedSection("text", entry.text or ""))
    if not children:
        return ""
    return text_format.format_sections([FormattedSection("clipboard", children=children)])


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
