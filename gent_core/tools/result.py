"""What a tool returns: :class:`ToolResult`, with its three channels and media (seed 004)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from gent_core.errors import GentError, ToolExecutionError
from gent_core.messages import ImagePart

__all__ = ["ToolResult", "ToolStatus"]

ToolStatus = Literal["success", "error"]


@dataclass
class ToolResult:
    """The outcome of one tool call.

    The tool returns *raw* data; the tool chain formats it (JSON, YAML) for the model.

    Attributes:
        output: The raw typed output (a string, a dict, a pydantic model...).
        media: Images to show the model, in order.
        clipboard_text: Texts to add to the agent's clipboard.
        clipboard_files: Files (relative to the working directory) to add to the clipboard.
        status: ``"success"`` or ``"error"``.
        error: The error, when ``status`` is ``"error"``.
    """

    output: Any = None
    media: list[ImagePart] = field(default_factory=list)
    clipboard_text: list[str] = field(default_factory=list)
    clipboard_files: list[Path] = field(default_factory=list)
    status: ToolStatus = "success"
    error: GentError | None = None

    @property
    def ok(self) -> bool:
        """Whether the call succeeded."""
        return self.status == "success"

    @classmethod
    def failure(cls, error: GentError | str, *, tool: str | None = None) -> ToolResult:
        """Build an error result from an error or a message."""
        if isinstance(error, str):
            from gent_core.errors import Location

            error = ToolExecutionError(error, location=Location(tool=tool))
        return cls(output=None, status="error", error=error)

    @classmethod
    def wrap(cls, value: Any) -> ToolResult:
        """Return ``value`` if it is a :class:`ToolResult`, else a success result holding it."""
        if isinstance(value, ToolResult):
            return value
        return cls(output=value)

    def with_files(self, files: Sequence[Path | str]) -> ToolResult:
        """Return this result with ``files`` added to :attr:`clipboard_files` (for chaining)."""
        self.clipboard_files.extend(Path(file) for file in files)
        return self
