"""Running one tool in tests, the way a tool chain does (minus hooks and timeouts)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gent_core.context import ExecutionContext
from gent_core.tools.base import Tool
from gent_core.tools.result import ToolResult

__all__ = ["run_tool", "run_tool_sync"]


async def run_tool(
    tool: Tool,
    arguments: Mapping[str, Any] | None = None,
    context: ExecutionContext | None = None,
    *,
    working_directory: Path | str | None = None,
) -> ToolResult:
    """Validate ``arguments`` and call ``tool``, like a tool chain without hooks or timeouts.

    Unlike a tool chain, errors are raised rather than turned into error results, so tests
    can assert on them.

    Args:
        tool: The tool.
        arguments: The arguments as a model would write them (``{}`` by default).
        context: The execution context; a fresh one by default.
        working_directory: The working directory of the fresh context (ignored when
            ``context`` is given); the current directory by default.

    Returns:
        The tool's result (a plain return value is wrapped).

    Raises:
        InvalidToolArgumentsError: The arguments do not match the tool's schema.
        Exception: Whatever the tool raises.
    """
    if context is None:
        context = ExecutionContext()
        if working_directory is not None:
            context.working_directory = Path(working_directory)
    validated = tool.validate_arguments(dict(arguments or {}))
    return ToolResult.wrap(await tool.call(validated, context))


def run_tool_sync(
    tool: Tool,
    arguments: Mapping[str, Any] | None = None,
    context: ExecutionContext | None = None,
    *,
    working_directory: Path | str | None = None,
) -> ToolResult:
    """:func:`run_tool` for sync tests: runs it in a new event loop (``asyncio.run``).

    Call it only where no event loop is running (a plain ``def test_...``).
    """
    return asyncio.run(run_tool(tool, arguments, context, working_directory=working_directory))
