"""What a tool returns: :class:`ToolResult`, with its three channels (the output, texts and
files for the clipboard) and media.

The long field names of tools written for earlier agent frameworks (``tool_response``,
``results_to_add_to_clipboard``, ``files_to_add_to_clipboard``) are accepted as aliases, so
such a tool works as it is::

    ToolResult(
        status="success",
        tool_response="Processed input text successfully and added to the clipboard.",
        results_to_add_to_clipboard=["Processed: ..."],   # clipboard_text
        files_to_add_to_clipboard=[Path("report.md")],    # clipboard_files
    )

A result is checked where it leaves the tool (:func:`result_problems`, used by the execution
engine): a malformed one (``media=None`` set after construction, a clipboard text that is not
a string, an unknown status...) becomes an error result for that call, never an exception.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from gent_core.errors import GentError, ToolExecutionError
from gent_core.messages import ImagePart

__all__ = ["ToolResult", "ToolStatus", "result_problems"]

ToolStatus = Literal["success", "error"]
"""Whether a tool call succeeded."""

_STATUSES = ("success", "error")


def _listed(value: Any) -> Any:
    """``None`` means "nothing" (a tool's ``results_to_add_to_clipboard = None``); a list is
    kept as it is; other iterables (a tuple, a generator) become lists; anything else is kept
    for :func:`result_problems` to report.
    """
    if value is None:
        return []
    if isinstance(value, list):
        return value
    if isinstance(value, Iterable) and not isinstance(value, (str, bytes, dict)):
        return list(value)
    return value


@dataclass(init=False)
class ToolResult:
    """The outcome of one tool call.

    The tool returns *raw* data; the tool chain formats it (JSON, YAML) for the model.

    Args:
        output: The raw typed output. Alias: ``tool_response``.
        media: Images to show the model, in order.
        clipboard_text: Texts to add to the clipboard. Alias: ``results_to_add_to_clipboard``.
        clipboard_files: Files to add to the clipboard. Alias: ``files_to_add_to_clipboard``.
        status: ``"success"`` or ``"error"``.
        error: The error, when ``status`` is ``"error"`` (made from the output if missing).
        stop_run: Ask the agent to stop the run after this step (see below).

    ``None`` for a list channel means an empty list.

    Attributes:
        output: The raw typed output (a string, a dict, a pydantic model...).
        media: Images to show the model, in order.
        clipboard_text: Texts to add to the agent's clipboard.
        clipboard_files: Files (relative to the working directory) to add to the clipboard.
        status: ``"success"`` or ``"error"``.
        error: The error, when ``status`` is ``"error"``.
        stop_run: Whether the run stops after the step that made this (successful) call: the
            agent ends it with the stop reason ``"tool_stop"``, the step's calls recorded, no
            answer. A :class:`~gent_core.tools.DeclaredTool` declared with ``stop`` sets it,
            so an evaluation reads what the model called without running anything.
    """

    output: Any = None
    media: list[ImagePart] = field(default_factory=list)
    clipboard_text: list[str] = field(default_factory=list)
    clipboard_files: list[Path] = field(default_factory=list)
    status: ToolStatus = "success"
    error: GentError | None = None
    stop_run: bool = False

    def __init__(
        self,
        output: Any = None,
        media: Sequence[ImagePart] | None = None,
        clipboard_text: Sequence[str] | None = None,
        clipboard_files: Sequence[Path | str] | None = None,
        status: ToolStatus = "success",
        error: GentError | None = None,
        *,
        stop_run: bool = False,
        tool_response: Any = None,
        results_to_add_to_clipboard: Sequence[str] | None = None,
        files_to_add_to_clipboard: Sequence[Path | str] | None = None,
    ) -> None:
        if tool_response is not None:
            if output is not None:
                raise TypeError("give the output once: 'output' or its alias 'tool_response'")
            output = tool_response
        if results_to_add_to_clipboard is not None:
            if clipboard_text is not None:
                raise TypeError(
                    "give clipboard texts once: 'clipboard_text' or its alias "
                    "'results_to_add_to_clipboard'"
                )
            clipboard_text = results_to_add_to_clipboard
        if files_to_add_to_clipboard is not None:
            if clipboard_files is not None:
                raise TypeError(
                    "give clipboard files once: 'clipboard_files' or its alias "
                    "'files_to_add_to_clipboard'"
                )
            clipboard_files = files_to_add_to_clipboard
        self.output = output
        self.media = _listed(media)
        self.clipboard_text = _listed(clipboard_text)
        files = _listed(clipboard_files)
        if isinstance(files, list):
            files = [Path(item) if isinstance(item, str) else item for item in files]
        self.clipboard_files = files
        self.status = status
        self.error = error
        self.stop_run = stop_run

    @property
    def ok(self) -> bool:
        """Whether the call succeeded."""
        return self.status == "success"

    @property
    def tool_response(self) -> Any:
        """Seed 004's name of :attr:`output`."""
        return self.output

    @property
    def results_to_add_to_clipboard(self) -> list[str]:
        """Seed 004's name of :attr:`clipboard_text`."""
        return self.clipboard_text

    @property
    def files_to_add_to_clipboard(self) -> list[Path]:
        """Seed 004's name of :attr:`clipboard_files`."""
        return self.clipboard_files

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


def _type_name(value: Any) -> str:
    return "None" if value is None else type(value).__name__


def result_problems(result: ToolResult) -> list[str]:
    """What is wrong with ``result``, one sentence each (empty when it is well formed).

    Checked: the status is ``"success"`` or ``"error"``; ``media`` is a list of
    :class:`~gent_core.messages.ImagePart`; ``clipboard_text`` a list of strings;
    ``clipboard_files`` a list of paths (``str`` or ``os.PathLike``); ``error`` a
    :class:`~gent_core.errors.GentError` or ``None``.
    """
    problems: list[str] = []
    status = getattr(result, "status", None)
    if status not in _STATUSES:
        problems.append(f"status must be 'success' or 'error', not {status!r}")
    channels: tuple[tuple[str, type | tuple[type, ...], str], ...] = (
        ("media", ImagePart, "ImagePart objects"),
        ("clipboard_text", str, "strings"),
        ("clipboard_files", (str, os.PathLike), "paths"),
    )
    for name, kind, described in channels:
        value = getattr(result, name, None)
        if not isinstance(value, list):
            problems.append(f"{name} must be a list of {described}, not {_type_name(value)}")
            continue
        wrong = next((item for item in value if not isinstance(item, kind)), None)
        if wrong is not None or any(item is None for item in value):
            problems.append(f"{name} must hold only {described}, not {_type_name(wrong)}")
    error = getattr(result, "error", None)
    if error is not None and not isinstance(error, GentError):
        problems.append(f"error must be a GentError or None, not {_type_name(error)}")
    return problems
