"""Tool execution: concurrency of slow tools, and framework overhead per call.

1. Ten tools that each sleep 100 ms, called in one action, against one such call — for
   async tools (``asyncio.sleep``) and for sync tools (``time.sleep``, run in worker
   threads). Target: ten calls take at most 1.3x the time of one.
2. Overhead of one call to a trivial tool (``a + b``) through a whole action (parse +
   validate + dispatch + format + observation), against calling the function directly,
   for the json and yaml chains, with an async and a sync tool; plus the parse step alone
   and the tool API alone (validate + call, no chain). A sync tool runs in a worker
   thread, so its rows include one thread hand-off.

Run: ``python benchmarks/bench_tools.py [--runs N] [--loops N]``
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from gent_json import JSONToolChain  # noqa: E402
from gent_xml.format import XMLFormat  # noqa: E402
from gent_yaml import YAMLToolChain  # noqa: E402
from recorder import Recorder  # noqa: E402

from gent_core._execution import execute_action  # noqa: E402
from gent_core.context import ExecutionContext  # noqa: E402
from gent_core.toolchain import ToolChain  # noqa: E402
from gent_core.tools import tool  # noqa: E402
from gent_core.tools.base import Tool  # noqa: E402

SLEEP = 0.1
FANOUT = 10


@tool
async def nap_async(index: int) -> int:
    """Sleep 100 ms without blocking."""
    await asyncio.sleep(SLEEP)
    return index


@tool
def nap_sync(index: int) -> int:
    """Sleep 100 ms in a worker thread."""
    time.sleep(SLEEP)
    return index


def add_numbers(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


async def add_numbers_async(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


add_sync = tool(add_numbers, name="add")
add_async = tool(add_numbers_async, name="add")


# --------------------------------------------------------------------------- 1. fan-out


def json_calls(name: str, count: int) -> str:
    calls = (f'{{"tool": "{name}", "args": {{"index": {i}}}}}' for i in range(count))
    return "[" + ", ".join(calls) + "]"


def median_time(run: Callable[[], Awaitable[Any]], runs: int) -> float:
    async def main() -> list[float]:
        await run()  # warm-up (worker threads started)
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            await run()
            times.append(time.perf_counter() - started)
        return times

    return statistics.median(asyncio.run(main()))


def action_runner(chain: ToolChain, content: str, calls: int) -> Callable[[], Awaitable[Any]]:
    context = ExecutionContext()

    async def run() -> None:
        result = await execute_action(chain, content, XMLFormat(), context)
        assert result.errors == [None] * calls, result.errors

    return run


def fanout_rows(runs: int) -> list[tuple[str, float, float]]:
    rows = []
    for label, napper in (("async tools", nap_async), ("sync tools (threads)", nap_sync)):
        chain = JSONToolChain([napper])
        one = action_runner(chain, json_calls(napper.name, 1), 1)
        ten = action_runner(chain, json_calls(napper.name, FANOUT), FANOUT)
        rows.append((label, median_time(one, runs), median_time(ten, runs)))
    return rows


# --------------------------------------------------------------------------- 2. overhead


def per_call(function: Callable[[], Any], loops: int) -> float:
    """Best of three: seconds per call of ``function``."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for _ in range(loops):
            function()
        best = min(best, (time.perf_counter() - started) / loops)
    return best


def per_await(make: Callable[[], Awaitable[Any]], loops: int) -> float:
    """Best of three: seconds per awaited call, all in one event loop."""

    async def main() -> float:
        for _ in range(50):  # warm-up
            await make()
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            for _ in range(loops):
                await make()
            best = min(best, (time.perf_counter() - started) / loops)
        return best

    return asyncio.run(main())


def tool_only(trivial: Tool, context: ExecutionContext) -> Callable[[], Awaitable[Any]]:
    def make() -> Awaitable[Any]:
        return trivial.call(trivial.validate_arguments({"a": 2, "b": 3}), context)

    return make


def parse_only(chain: ToolChain, text: str) -> Callable[[], Any]:
    def parse() -> Any:
        return chain.parse(text)

    return parse


def whole_action(chain: ToolChain, text: str) -> Callable[[], Awaitable[Any]]:
    text_format, context = XMLFormat(), ExecutionContext()

    def make() -> Awaitable[Any]:
        return execute_action(chain, text, text_format, context)

    return make


def overhead_rows(loops: int) -> list[tuple[str, float]]:
    texts = {
        "json": '{"tool": "add", "args": {"a": 2, "b": 3}}',
        "yaml": "tool: add\nargs:\n  a: 2\n  b: 3\n",
    }
    chain_types: dict[str, type[ToolChain]] = {"json": JSONToolChain, "yaml": YAMLToolChain}
    rows = [("direct function call", per_call(lambda: add_numbers(2, 3), loops * 10))]
    for name, chain_type in chain_types.items():
        parse = parse_only(chain_type([add_async]), texts[name])
        rows.append((f"{name}: parse only", per_call(parse, loops)))
    for kind, trivial in (("async", add_async), ("sync", add_sync)):
        only = tool_only(trivial, ExecutionContext())
        rows.append((f"{kind} tool: validate + call (no chain)", per_await(only, loops)))
        for name, chain_type in chain_types.items():
            action = whole_action(chain_type([trivial]), texts[name])
            rows.append((f"{kind} tool: {name} chain, whole action", per_await(action, loops)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per fan-out case")
    parser.add_argument("--loops", type=int, default=2000, help="calls per overhead timing")
    args = parser.parse_args()
    record = Recorder(
        "bench_tools",
        "Tools: concurrency and overhead per call",
        f"{FANOUT} tools that each sleep {SLEEP * 1000:.0f} ms called in one action against one "
        "such call (wall time, median), and the cost of one call to a trivial tool through a "
        "whole action (parse, validate, dispatch, format, observation) against calling the "
        "function directly (best of three loops). No peer framework is named here: the "
        "baselines are one call and a direct call.",
    )

    print(f"1. {FANOUT} tools sleeping {SLEEP * 1000:.0f} ms in one action (median of {args.runs})")
    print(f"   {'tools':<22} {'1 call':>9} {f'{FANOUT} calls':>9} {'ratio':>7}  target <= 1.30")
    for label, one, ten in fanout_rows(args.runs):
        verdict = "ok" if ten / one <= 1.3 else "TOO SLOW"
        ratio = ten / one
        print(f"   {label:<22} {one * 1e3:>7.1f}ms {ten * 1e3:>7.1f}ms {ratio:>6.2f}x  {verdict}")
        record.measure(
            f"{FANOUT} calls in one action, {label}",
            ten,
            "s",
            versus="one call",
            other=one,
            words=f"{ratio:.2f}x the time of one call",
            headline=label.startswith("sync"),
        )
        record.target(
            f"{FANOUT} concurrent calls take at most 1.3x one call ({label})",
            f"{ratio:.2f}x",
            "met" if ratio <= 1.3 else "missed",
        )

    print(f"\n2. Overhead per call of a trivial tool (best of 3 x {args.loops} calls)")
    rows = overhead_rows(args.loops)
    direct = rows[0][1]
    print(f"   {'what':<40} {'per call':>10} {'vs direct':>10}")
    for label, seconds in rows:
        print(f"   {label:<40} {seconds * 1e6:>8.2f}us {seconds / direct:>9.0f}x")
        if seconds is not direct:
            record.measure(
                f"trivial tool call: {label}", seconds, "s", versus="direct call", other=direct
            )
    record.save()


if __name__ == "__main__":
    main()
