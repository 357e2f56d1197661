"""Per-call cost of the Tool API: validate_arguments + call vs calling the function directly.

Run: python benchmarks/bench_tool_api.py
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from gent_core.context import ExecutionContext
from gent_core.tools import BaseTool, tool


def add(a: int, b: int) -> int:
    return a + b


async def add_async(a: int, b: int) -> int:
    return a + b


add_tool = tool(add)
add_async_tool = tool(add_async)


class AddTool(BaseTool):
    name = "add_schema"
    parameters = {  # noqa: RUF012
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
        "additionalProperties": False,
    }

    async def run(self, working_directory: Path, a: int, b: int) -> int:
        return a + b


ARGS = {"a": 1, "b": "2"}  # one argument needs coercion, as models often write it
CONTEXT = ExecutionContext()


ROUNDS = 5  # each figure is the best of ROUNDS rounds, to damp noise from other processes


def per_call(function: Callable[[], Any], number: int) -> float:
    for _ in range(min(number, 1000)):
        function()
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(number // ROUNDS):
            function()
        best = min(best, (time.perf_counter() - start) / (number // ROUNDS))
    return best


async def per_call_async(function: Callable[[], Awaitable[Any]], number: int) -> float:
    for _ in range(min(number, 1000)):
        await function()
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(number // ROUNDS):
            await function()
        best = min(best, (time.perf_counter() - start) / (number // ROUNDS))
    return best


async def measure() -> list[tuple[str, float, float]]:
    schema_tool = AddTool()
    direct = per_call(lambda: add(1, 2), 200_000)
    direct_async = await per_call_async(lambda: add_async(1, 2), 100_000)
    validate = per_call(lambda: add_tool.validate_arguments(ARGS), 100_000)
    validate_schema = per_call(lambda: schema_tool.validate_arguments(ARGS), 100_000)
    full_async = await per_call_async(
        lambda: add_async_tool.call(add_async_tool.validate_arguments(ARGS), CONTEXT), 50_000
    )
    full_schema = await per_call_async(
        lambda: schema_tool.call(schema_tool.validate_arguments(ARGS), CONTEXT), 50_000
    )
    full_sync = await per_call_async(
        lambda: add_tool.call(add_tool.validate_arguments(ARGS), CONTEXT), 10_000
    )
    to_thread = await per_call_async(lambda: asyncio.to_thread(add, 1, 2), 10_000)
    return [
        ("direct call add(1, 2)", direct, direct),
        ("direct await add_async(1, 2)", direct_async, direct),
        ("@tool validate_arguments", validate, direct),
        ("BaseTool validate_arguments", validate_schema, direct),
        ("@tool async: validate + call", full_async, direct_async),
        ("BaseTool async: validate + call", full_schema, direct_async),
        ("@tool sync: validate + call (thread)", full_sync, direct),
        ("  for comparison: asyncio.to_thread(add)", to_thread, direct),
    ]


def main() -> None:
    from recorder import Recorder

    record = Recorder(
        "bench_tool_api",
        "Tool API: validation and call",
        "Per-call cost of a tool's validate_arguments + call (one argument needs coercion) "
        "against calling the function directly; wall time, best of five rounds.",
    )
    rows = asyncio.run(measure())
    print(f"{'what':<44} {'per call':>10} {'vs direct':>11}")
    for label, seconds, baseline in rows:
        print(f"{label:<44} {seconds * 1e6:>8.2f}us {seconds / baseline:>10.1f}x")
        if seconds is not baseline:
            record.measure(
                label.strip(),
                seconds,
                "s",
                versus="the direct call" if baseline == rows[0][1] else "the direct await",
                other=baseline,
                headline=label.startswith("@tool async"),
            )
    record.save()


if __name__ == "__main__":
    main()
