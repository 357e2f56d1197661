"""Relative paths judged on their text: a suite's files and file checks name paths inside a
task's working directory before that directory exists.
"""

from __future__ import annotations

from pathlib import PurePosixPath

__all__ = ["relative_path_problem"]


def relative_path_problem(name: str) -> str | None:
    """Why ``name`` cannot name a file inside a directory, judged on the text alone (no file
    system): for paths given before the directory exists (a suite's files and file checks).

    A slash and a backslash both separate parts. Refused: an empty path, a NUL byte, an
    absolute path or one starting with a drive (``C:``), a ``..`` part, and a path that
    names the directory itself (``.``, ``./``).

    Returns:
        What is wrong (``"it contains '..'"``), or ``None`` when ``name`` is acceptable.
    """
    if not name:
        return "it is empty"
    if "\x00" in name:
        return "it contains a NUL byte"
    posix = PurePosixPath(name.replace("\\", "/"))
    if posix.is_absolute() or ":" in (posix.parts[0] if posix.parts else ""):
        return "it is absolute (or starts with a drive)"
    if ".." in posix.parts:
        return "it contains '..', which leads out of the directory"
    if not posix.parts:
        return "it names the directory itself, not a file in it"
    return None
