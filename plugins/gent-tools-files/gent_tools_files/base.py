"""What the file tools share: options from the agent config, the workspace, bounds on work.

Each tool is a :class:`~gent_core.tools.BaseTool` subclass with a pydantic ``Options`` model.
The plugin registers the classes, so the agent config can set options::

    tools:
      - {name: read_file, max_chars: 20000}

and ``ReadFile(max_chars=20000)`` does the same in Python. Tools run in a worker thread
(``run`` is sync); their long loops check the run's cancellation, and their work is bounded
by amounts (entries examined, bytes read, files searched), never by elapsed time: a tool's
answer is the same on a fast machine and on a loaded one. The one exception is
``search_text``'s bound on the time the regular expression engine may spend matching, a safety
net the engine needs (it has no step budget); its answer then says the results are partial.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from gent_core.tools import BaseTool

__all__ = [
    "DEFAULT_SKIP_DIRS",
    "FILE_PATH_SCHEMA",
    "FileTool",
    "FileToolOptions",
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
        from gent_core.config import parse_options_model

        self.options = parse_options_model(
            type(self).Options, options, plugin=self.name, kind="tool"
        )
