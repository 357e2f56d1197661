"""Shaping tool results for the observation: output limits, error text, section names and
the clipboard-file check (by the toolkit's :class:`~gent_core._workspace.Workspace`).
"""

from __future__ import annotations

import dataclasses
import errno
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from gent_core.errors import GentError, Location, ToolExecutionError
from gent_core.tools.result import ToolResult

if TYPE_CHECKING:
    from gent_core.context import ExecutionContext

__all__ = [
    "ERROR_PREFIX",
    "PathRefused",
    "check_clipboard_files",
    "error_text",
    "resolve_real",
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


ERROR_PREFIX = "Error: "
"""What the observation text of a failed call starts with."""


def error_text(error: GentError) -> str:
    """The observation text of a failed call: ``"Error: <model message>"``."""
    return f"{ERROR_PREFIX}{error.model_message}"


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


class PathRefused(ValueError):
    """A path that cannot be used inside the working directory; the message says why."""


def resolve_real(path: Path) -> Path:
    """``path`` made absolute with its symbolic links resolved.

    Raises:
        PathRefused: The path runs into a symbolic link loop (on every Python: 3.13 resolves
            such a path without raising), or the system cannot resolve it (too long...).
    """
    try:
        resolved = path.resolve()
        loop = _is_link_loop(resolved)
    except RuntimeError:  # Python < 3.13 reports a loop this way
        raise PathRefused("the path is a symbolic link loop") from None
    except (OSError, ValueError) as error:
        if getattr(error, "errno", None) == errno.ELOOP:
            raise PathRefused("the path is a symbolic link loop") from None
        reason = getattr(error, "strerror", None) or str(error)
        raise PathRefused(f"the path cannot be resolved ({reason})") from None
    if loop:
        raise PathRefused("the path is a symbolic link loop")
    return resolved


def _is_link_loop(resolved: Path) -> bool:
    """Whether a (non-strictly) resolved path runs into a symbolic link loop, in its last
    part or in a directory on the way (Python 3.13 resolves such a path without raising).
    """
    try:
        os.stat(resolved)
    except OSError as error:
        return error.errno == errno.ELOOP
    except ValueError:
        return False
    return False


def check_clipboard_files(result: ToolResult, context: ExecutionContext, tool: str) -> ToolResult:
    """Check that every clipboard file of ``result`` lies inside the working directory, by
    the rules of :meth:`ExecutionContext.workspace <gent_core.context.ExecutionContext.workspace>`
    (the file tools' rules: ``..`` that stays inside and links that stay inside are followed).

    Returns:
        ``result`` with its files made relative to the working directory, or an error result
        (no file is read) naming the first file that cannot be used and why.
    """
    from gent_core._file_errors import FileToolError

    accepted: list[Path] = []
    shown = ""
    try:
        workspace = context.workspace(tool)
        for path in result.clipboard_files:
            shown = str(path).replace("\x00", "\\x00")
            accepted.append(Path(workspace.resolve(os.fspath(path)).relative))
    except FileToolError as refused:
        problem = getattr(refused, "problem", refused.model_message).rstrip(".")
        problem = problem[:1].lower() + problem[1:]
        error = ToolExecutionError(
            f"tool {tool!r} returned clipboard file {shown!r}, which cannot be used: "
            f"{problem} (working directory {str(context.working_directory)!r})",
            location=Location(tool=tool, file=shown),
            model_message=(
                f"Tool {tool!r} returned the file {shown!r} for the clipboard, but {problem}; "
                "only files inside the working directory can be added."
            ),
        )
        return ToolResult(output=None, status="error", error=error)
    return dataclasses.replace(result, clipboard_files=accepted)
