"""The errors of the file tools: what was wrong with a path or a file, in words for the model.

Every error is a :class:`~gent_core.errors.ToolExecutionError`, so the tool chain shows its
``model_message`` to the model and code gets the typed exception. :class:`FileToolError`,
:class:`PathRejectedError` and :data:`RELATIVE_PATH_HINT` come from :mod:`gent_core.workspace`
(its :class:`~gent_core.workspace.Workspace` raises them); the file tools add the rest.
"""

from __future__ import annotations

from gent_core.workspace import RELATIVE_PATH_HINT, FileToolError, PathRejectedError

__all__ = [
    "BinaryFileError",
    "EditMatchError",
    "FileToolError",
    "PathRejectedError",
    "RELATIVE_PATH_HINT",
]


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
