"""What the file tools share: options from the agent config, the workspace, bounds on work.

Each tool is a :class:`~gent_core.tools.BaseTool` subclass with a pydantic ``Options`` model.
The plugin registers the classes, so the agent config can set options::

    tools:
      - {name: read_file, max_chars: 20000}

and ``ReadFile(max_chars=20000)`` does the same in Python. Tools run in a worker thread
(``run`` is sync), and their long loops call :meth:`Budget.check`, which stops at the run's
cancellation and at the tool's own time bound.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from gent_core.context import Cancellation
from gent_core.tools import BaseTool

__all__ = [
    "DEFAULT_SKIP_DIRS",
    "FILE_PATH_SCHEMA",
    "Budget",
    "FileTool",
    "FileToolOptions",
    "OutOfTime",
]

DEFAULT_SKIP_DIRS = (
    ".git",
    ".hg",
    ".svn",
    "__pycache__",
    "node_modules",
    ".venv",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
)
"""Directories a recursive walk lists but does not enter unless asked (the output says so)."""


FILE_PATH_SCHEMA: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "description": "the file, relative to the working directory",
}
"""The JSON Schema of a tool's ``path`` argument naming one file."""


class FileToolOptions(BaseModel):
    """Base of the file tools' options: unknown options are refused, values are checked."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class OutOfTime(Exception):
    """Raised by :meth:`Budget.check` when the time bound is reached."""


class Budget:
    """Where a long loop checks whether to go on: cancellation and a deadline.

    Args:
        cancellation: The run's cancellation token.
        seconds: The time bound, or ``None`` for none.
    """

    def __init__(self, cancellation: Cancellation, seconds: float | None = None) -> None:
        self.cancellation = cancellation
        self.seconds = seconds
        self.deadline = None if seconds is None else time.monotonic() + seconds

    def check(self) -> None:
        """Raise when the run was cancelled or the time bound is reached.

        Raises:
            asyncio.CancelledError: The run was cancelled.
            OutOfTime: The deadline passed.
        """
        self.cancellation.raise_if_cancelled()
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise OutOfTime

    def remaining(self) -> float | None:
        """Seconds left before the deadline (at least a millisecond), ``None`` without one."""
        if self.deadline is None:
            return None
        return max(self.deadline - time.monotonic(), 0.001)


class FileTool(BaseTool):
    """Base of the file tools: validates the options it is created with.

    Args:
        **options: The options, as in the agent config; see the tool's ``Options``.

    Raises:
        ConfigError: An unknown option, or a value that is not accepted.
    """

    Options: ClassVar[type[FileToolOptions]] = FileToolOptions
    options: FileToolOptions

    def __init__(self, **options: Any) -> None:
        from gent_core.config.options import parse_options_model

        self.options = parse_options_model(
            type(self).Options, options, plugin=self.name, kind="tool"
        )
