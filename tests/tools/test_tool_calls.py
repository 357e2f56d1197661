"""Calling function tools: sync and async, off the event loop, injection, results, errors."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest

from gent_core.context import ExecutionContext
from gent_core.messages import ImagePart
from gent_core.testing import run_tool, run_tool_sync
from gent_core.tools import ToolResult, tool

GUARD = 30.0
"""Seconds a test waits for an event that comes at once when the code works: a guard against
a hang, never a speed check (the tests prove timing properties with events and barriers)."""


@tool
def add(a: int, b: int = 1) -> int:
    """Add two integers."""
    return a + b


@tool
async def add_later(a: int, b: int = 1) -> int:
    """Add two integers, asynchronously."""
    await asyncio.sleep(0)
    return a + b


def test_sync_tool_runs_in_a_worker_thread() -> None:
    seen: list[str] = []

    @tool
    def where() -> str:
        seen.append(threading.current_thread().name)
        return "done"

    assert run_tool_sync(where).output == "done"
    assert seen and seen[0] != threading.main_thread().name


def test_sync_and_async_tools_return_wrapped_values() -> None:
    for function_tool in (add, add_later):
        result = run_tool_sync(function_tool, {"a": "2", "b": 3})
        assert isinstance(result, ToolResult)
        assert result.ok
        assert result.output == 5
    assert add.is_async is False
    assert add_later.is_async is True


def test_tool_is_still_callable_directly() -> None:
    assert add(2, 3) == 5
    assert asyncio.run(add_later(2)) == 3


def test_a_blocking_sync_tool_does_not_block_an_async_one() -> None:
    blocked = threading.Event()
    released = threading.Event()

    @tool
    def blocking() -> str:
        blocked.set()
        # Blocks its thread until the async tool runs, which needs the event loop to go on.
        return "sync" if released.wait(GUARD) else "never released"

    @tool
    async def quick() -> str:
        if not await asyncio.to_thread(blocked.wait, GUARD):
            return "the sync tool never started"
        released.set()  # ran while the sync tool was blocked
        return "async"

    async def both() -> list[ToolResult]:
        return list(await asyncio.gather(run_tool(blocking), run_tool(quick)))

    assert [result.output for result in asyncio.run(both())] == ["sync", "async"]


def test_many_blocking_sync_tools_run_concurrently() -> None:
    # Twenty calls must all be blocked in the barrier at once for any to go on.
    twenty_at_once = threading.Barrier(20, timeout=GUARD)

    @tool
    def meet() -> int:
        twenty_at_once.wait()
        return 1

    async def all_of_them() -> list[ToolResult]:
        return list(await asyncio.gather(*(run_tool(meet) for _ in range(20))))

    assert [result.output for result in asyncio.run(all_of_them())] == [1] * 20


def test_context_and_working_directory_are_injected(tmp_path: Path) -> None:
    @tool
    def inspect_call(
        name: str, ctx: ExecutionContext, *, working_directory: Path
    ) -> dict[str, object]:
        return {"name": name, "context": ctx, "wd": working_directory}

    context = ExecutionContext(working_directory=tmp_path)
    result = run_tool_sync(inspect_call, {"name": "x"}, context)
    assert result.output == {"name": "x", "context": context, "wd": tmp_path}


def test_working_directory_as_str_and_positional_only(tmp_path: Path) -> None:
    @tool
    def where(label: str, /, working_directory: str) -> str:
        return f"{label}:{working_directory}"

    assert list(where.parameters["properties"]) == ["label"]
    result = run_tool_sync(where, {"label": "wd"}, working_directory=tmp_path)
    assert result.output == f"wd:{tmp_path}"


def test_context_annotated_only_for_type_checking_is_still_injected() -> None:
    namespace: dict[str, object] = {}
    exec(
        "def f(x: int, context: 'ExecutionContext') -> int:\n"
        "    return x if context is not None else -1\n",
        namespace,
    )
    function_tool = tool(cast(Callable[..., Any], namespace["f"]))
    assert list(function_tool.parameters["properties"]) == ["x"]
    assert run_tool_sync(function_tool, {"x": 4}).output == 4


def test_returned_tool_result_passes_through() -> None:
    image = ImagePart(b"\x89PNG...", "image/png")

    @tool
    def snapshot() -> ToolResult:
        return ToolResult(output="a picture", media=[image], clipboard_text=["kept"])

    result = run_tool_sync(snapshot)
    assert result.output == "a picture"
    assert result.media == [image]
    assert result.clipboard_text == ["kept"]


@pytest.mark.parametrize("function_tool_kind", ["sync", "async"])
def test_exceptions_propagate_from_call(function_tool_kind: str) -> None:
    def fail(reason: str) -> None:
        raise RuntimeError(reason)

    async def fail_async(reason: str) -> None:
        raise RuntimeError(reason)

    function_tool = tool(fail if function_tool_kind == "sync" else fail_async)
    with pytest.raises(RuntimeError, match="broken"):
        run_tool_sync(function_tool, {"reason": "broken"})


def test_cancelled_sync_call_stops_waiting_and_drops_the_result() -> None:
    outcome: list[str] = []
    started = threading.Event()
    step_may_end = threading.Event()
    finished = threading.Event()

    @tool
    def long_job(context: ExecutionContext) -> str:
        started.set()
        step_may_end.wait(GUARD)  # a blocking step that cannot be interrupted
        outcome.append("saw cancellation" if context.cancellation.cancelled else "not cancelled")
        finished.set()
        return "result nobody reads"

    async def cancel_it() -> None:
        context = ExecutionContext()
        task = asyncio.ensure_future(run_tool(long_job, {}, context))
        assert await asyncio.to_thread(started.wait, GUARD)  # the blocking step is under way
        context.cancellation.cancel("test")
        task.cancel()
        # The step ends only when the test says so, after this: a call that waited for its
        # thread would reach the guard (a TimeoutError, not the CancelledError expected).
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, GUARD)
        assert not finished.is_set()  # released while the thread's step is still under way
        step_may_end.set()

    asyncio.run(cancel_it())
    assert finished.wait(GUARD)
    assert outcome == ["saw cancellation"]  # the thread can poll the token and stop early


def test_timeout_attribute_from_decorator() -> None:
    @tool(timeout=0.5)
    def quick() -> None:
        return None

    assert quick.timeout == 0.5
    assert add.timeout is None
