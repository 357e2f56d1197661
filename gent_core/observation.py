"""Shaping tool results for the observation: output limits, error text, section names and
the clipboard-file check.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from gent_core.errors import GentError, Location, ToolExecutionError
from gent_core.tools.result import ToolResult

__all__ = [
    "check_clipboard_files",
    "error_text",
    "resolve_inside",
    "section_name_for",
    "truncate_output",
]

_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9_.\-]+")
_MAX_NAME = 64


def truncate_output(text: str, limit: int) -> str:
    r"""Cut ``text`` to ``limit`` characters, noting how much was cut.

    Returns:
        ``text`` unchanged when it fits; else its first ``limit`` characters followed by
        ``"\n[... N more characters cut]"``.
    """
    if limit < 0 or len(text) <= limit:
        return text
    return f"{text[:limit]}\n[... {len(text) - limit} more characters cut]"


def error_text(error: GentError) -> str:
    """The observation text of a failed call: ``"Error: <model message>"``."""
    return f"Error: {error.model_message}"


def section_name_for(tool_name: str) -> str:
    """Return a section name for ``tool_name`` that every format can write.

    Tool names are normally identifiers and are kept as they are; in a name the model made
    up (``"search the web"``) each run of other characters becomes ``_``, and a name that
    does not start with a letter or ``_`` gets a leading ``_`` (``"3d"`` gives ``"_3d"``).
    """
    cleaned = _UNSAFE_NAME.sub("_", tool_name)[:_MAX_NAME]
    if not cleaned:
        return "tool"
    if not (cleaned[0] == "_" or ("a" <= cleaned[0].lower() <= "z")):
        cleaned = "_" + cleaned
    return cleaned


def resolve_inside(path: Path, root: Path) -> Path | None:
    """Return ``path`` relative to ``root`` when it really lies inside ``root``, else ``None``.

    A path with a ``..`` part is refused outright; an absolute path must lie inside ``root``;
    symbolic links are resolved (:meth:`Path.resolve`) before the check, so a link pointing
    out of ``root`` is refused too.
    """
    if ".." in path.parts:
        return None
    real_root = root.resolve()
    candidate = path if path.is_absolute() else real_root / path
    resolved = candidate.resolve()
    if not resolved.is_relative_to(real_root):
        return None
    return resolved.relative_to(real_root)


def check_clipboard_files(result: ToolResult, working_directory: Path, tool: str) -> ToolResult:
    """Check that every clipboard file of ``result`` lies inside ``working_directory``.

    Returns:
        ``result`` with its files made relative to the working directory, or an error result
        (no file is read) naming the first file that lies outside it.
    """
    accepted: list[Path] = []
    for path in result.clipboard_files:
        inside = resolve_inside(Path(path), working_directory)
        if inside is None:
            error = ToolExecutionError(
                f"tool {tool!r} returned clipboard file {str(path)!r}, which is outside the "
                f"working directory {str(working_directory)!r}",
                location=Location(tool=tool, file=str(path)),
                model_message=(
                    f"Tool {tool!r} returned the file {str(path)!r} for the clipboard, but it "
                    "is outside the working directory; only files inside it can be added."
                ),
            )
            return ToolResult(output=None, status="error", error=error)
        accepted.append(inside)
    return dataclasses.replace(result, clipboard_files=accepted)
