"""The errors of confined file access (:class:`~gent_core._workspace.Workspace`): what was
wrong with a path or a file, in words for the model.

Every error is a :class:`~gent_core.errors.ToolExecutionError`, so the tool chain shows its
``model_message`` to the model and code gets the typed exception.
"""

from __future__ import annotations

from gent_core.errors import Location, ToolExecutionError

__all__ = ["RELATIVE_PATH_HINT", "FileToolError", "PathRejectedError"]

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
        problem: Why, without naming the path (``"the path contains a NUL byte"``): for a
            caller that names the path itself.
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
        problem: str | None = None,
    ) -> None:
        self.reason = reason
        self.problem = problem or message
        super().__init__(message, tool=tool, path=path, hint=hint)
