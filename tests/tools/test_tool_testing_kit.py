"""gent_core.testing.run_tool / run_tool_sync and the threads that run sync tools."""

from __future__ import annotations

import asyncio
import contextvars
import threading
from pathlib import Path

import pytest

from gent_core.context import ExecutionContext
from gent_core.errors import InvalidToolArgumentsError
from gent_core.testing import run_tool, run_tool_sync
from gent_core.tools import tool
from gent_core.tools._threads import run_sync


@tool
def double(n: int) -> int:
    """Double a number."""
    return 2 * n


def test_run_tool_validates_then_calls() -> None:
    assert asyncio.run(run_tool(double, {"n": "21"})).output == 42
    assert run_tool_sync(double, {"n": 4}).output == 8


def test_run_tool_raises_invalid_arguments() -> None:
    with pytest.raises(InvalidToolArgumentsError, match="expected an integer"):
        run_tool_sync(double, {"n": "many"})


def test_run_tool_uses_the_given_context_or_working_directory(tmp_path: Path) -> None:
    @tool
    def where(*, working_directory: Path) -> Path:
        return working_directory

    assert run_tool_sync(where, working_directory=tmp_path).output == tmp_path
    context = ExecutionContext(working_directory=tmp_path / "ctx")
    assert run_tool_sync(where, {}, context).output == tmp_path / "ctx"
    assert run_tool_sync(where).output == Path.cwd()


def test_run_sync_copies_context_variables_and_raises_errors() -> None:
    variable: contextvars.ContextVar[str] = contextvars.ContextVar("variable", default="unset")

    def read() -> tuple[str, bool]:
        return variable.get(), threading.current_thread().daemon

    def fail() -> None:
        raise KeyError("missing")

    async def main() -> tuple[str, bool]:
        variable.set("set in task")
        with pytest.raises(KeyError, match="missing"):
            await run_sync(fail)
        return await run_sync(read)

    assert asyncio.run(main()) == ("set in task", True)
