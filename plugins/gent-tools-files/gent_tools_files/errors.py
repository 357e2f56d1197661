"""The errors of the file tools: what was wrong with a path or a file, in words for the model.

Every error is a :class:`~gent_core.errors.ToolExecutionError`, so the tool chain shows its
``model_message`` to the model and code gets the typed exception.
"""

from __future__ import annotations

from gent_core.errors import Location, ToolExecutionError

__all__ = [
    "BinaryFileError",
    "EditMatchError",
    "FileToolError",
    "PathRejectedError",
    "RELATIVE_PATH_HINT",
]

RELATIVE_PATH_HINT = (
    "Write paths relative to the working directory, such as 'src/main.py' or '.' for the "
    "working directory itself."
)
"""What a path may be, for error hints."""


class FileToolError(ToolExecutionError):
    """A file tool could not do what was asked; the message says why and what is accepted.

    Args:
        message: What was wrong, written for the model (and shown to the programmer too).
        tool: The tool's name.
        path: The path as the model wrote it.
        hint: What is accepted instead.
    """

    def __init__(
        self, message: str, *, tool: str, path: str | None = None, hint: str | None = None
    ) -> None:
        self.path = path
        super().__init__(
            message,
            location=Location(tool=tool, file=path),
            model_message=message,
            hint=hint,
        )


class PathRejectedError(FileToolError):
    """A path that is refused: outside the working directory, a NUL byte, a symbolic link
    loop, or a file that is not a regular file (FIFO, socket, device).

    Attributes:
        reason: A short machine-readable reason: ``"nul"``, ``"parent"`` (escapes through
            ``..``), ``"absolute"``, ``"symlink"`` (a link pointing out), ``"loop"``,
            ``"fifo"``, ``"socket"``, ``"device"``, ``"changed"`` (swapped while in use).
    """

    def __init__(
        self,
        message: str,
        *,
        tool: str,
        path: str | None,
        reason: str,
        hint: str | None = RELATIVE_PATH_HINT,
    ) -> None:
        self.reason = reason
        super().__init__(message, tool=tool, path=path, hint=hint)


class BinaryFileError(FileToolError):
    """A file that is not UTF-8 text; it is reported (size and type), never dumped.

    Attributes:
        kind: What the file looks like (``"PNG image"``, ``"binary data"``...).
        size: Its size in bytes.
    """

    def __init__(self, message: str, *, tool: str, path: str, kind: str, size: int) -> None:
        self.kind = kind
        self.size = size
        super().__init__(message, tool=tool, path=path)


class EditMatchError(FileToolError):
    """``edit_file``'s ``old_text`` was found zero times, or not the expected number of times.

    Attributes:
        count: How many times it was found.
        lines: The line numbers where each occurrence starts.
    """

    def __init__(
        self, message: str, *, tool: str, path: str, count: int, lines: list[int], hint: str
    ) -> None:
        self.count = count
        self.lines = lines
        super().__init__(message, tool=tool, path=path, hint=hint)
