"""Sync tool threads are bounded: calls beyond the bound wait their turn, and a call given up
while waiting never runs (issue 11, bounds)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from gent_core.tools import _threads as threads
from gent_core.tools._threads import (
    MAX_TOOL_THREADS,
    run_sync,
    set_max_tool_threads,
    tool_threads_saturated,
)


@pytest.fixture
def two_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh pool (threads other tests left busy do not count), bounded to two."""
    monkeypatch.setattr(threads, "_workers", threads._DaemonWorkers())
    assert threads._workers.max_threads == MAX_TOOL_THREADS
    set_max_tool_threads(2)


class Gate:
    """Sync work that blocks until released, counting how many run at once."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.lock = threading.Lock()
        self.running = 0
        self.most = 0
        self.started: list[int] = []

    def work(self, number: int) -> int:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
            self.started.append(number)
        self.release.wait(timeout=60)
        with self.lock:
            self.running -= 1
        return number


async def wait_until(condition: object, what: str) -> None:
    for _ in range(6000):
        if callable(condition) and condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


def test_calls_beyond_the_bound_wait_and_all_finish(two_threads: None) -> None:
    gate = Gate()

    async def main() -> list[int]:
        calls = [asyncio.ensure_future(run_sync(gate.work, n)) for n in range(5)]
        await wait_until(lambda: len(gate.started) == 2, "two calls started")
        assert len(threads._workers._pending) == 3  # the other three wait in the queue
        assert tool_threads_saturated()
        gate.release.set()
        return list(await asyncio.gather(*calls))

    assert asyncio.run(main()) == [0, 1, 2, 3, 4]
    assert gate.most == 2
    assert not tool_threads_saturated()


def test_a_call_given_up_while_waiting_never_runs(two_threads: None) -> None:
    gate = Gate()

    async def main() -> None:
        busy = [asyncio.ensure_future(run_sync(gate.work, n)) for n in range(2)]
        await wait_until(lambda: len(gate.started) == 2, "two calls started")
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(run_sync(gate.work, 99), timeout=0.05)
        gate.release.set()
        await asyncio.gather(*busy)
        after = asyncio.ensure_future(run_sync(gate.work, 3))  # the queue moves on
        assert await after == 3

    asyncio.run(main())
    assert 99 not in gate.started


def test_raising_the_bound_starts_waiting_calls(two_threads: None) -> None:
    gate = Gate()

    async def main() -> None:
        calls = [asyncio.ensure_future(run_sync(gate.work, n)) for n in range(3)]
        await wait_until(lambda: len(gate.started) == 2, "two calls started")
        set_max_tool_threads(3)
        await wait_until(lambda: len(gate.started) == 3, "the third call started")
        gate.release.set()
        await asyncio.gather(*calls)

    asyncio.run(main())
    assert gate.most == 3


def test_the_bound_must_allow_one_thread() -> None:
    with pytest.raises(ValueError, match="at least one tool thread"):
        set_max_tool_threads(0)
