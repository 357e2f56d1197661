"""Running sync tool code off the event loop, in daemon worker threads.

:func:`run_sync` awaits a sync function that runs in a worker thread, so the event loop (and
every other tool call) keeps going while it works.

Why not :func:`asyncio.to_thread`: its executor's threads are joined when the interpreter
exits, so one sync tool stuck in a blocking call (a network read without timeout) would keep
``gent run`` from exiting long after the tool call timed out. The workers here are daemon
threads, reused while idle (so a call costs a queue hand-off, not a thread start).

**Bound.** At most :data:`MAX_TOOL_THREADS` (32) workers run at once, process-wide
(:func:`set_max_tool_threads` changes it). A call made while all of them are busy waits in a
first-come, first-served queue; it still counts against its tool's timeout, and a call whose
awaiting task was cancelled meanwhile (a timeout, a cancelled run) is dropped from the queue
without running. :func:`tool_threads_saturated` tells whether calls are waiting, so a timeout
can say so.

A thread cannot be killed: when the awaiting task is cancelled (timeout, cancelled run) the
function keeps running to its end and its result is dropped; it keeps its worker busy until
then. Long sync tools should poll ``context.cancellation.cancelled`` and return early.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
import functools
import os
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["MAX_TOOL_THREADS", "run_sync", "set_max_tool_threads", "tool_threads_saturated"]

T = TypeVar("T")

_Job = Callable[[], None]

MAX_TOOL_THREADS = 32
"""Default bound on worker threads running sync tool code at once (process-wide)."""


class _DaemonWorkers:
    """A bounded pool of daemon threads that grows on demand and keeps a few idle ones.

    At most ``max_threads`` jobs run at once; more wait in ``_pending`` (first come, first
    served) and are handed to the next worker that finishes a job.
    """

    def __init__(
        self, max_threads: int = MAX_TOOL_THREADS, max_idle: int = 8, idle_seconds: float = 30.0
    ) -> None:
        self.max_threads = max_threads
        self._max_idle = max_idle
        self._idle_seconds = idle_seconds
        self._reset()

    def _reset(self) -> None:
        self._lock = threading.Lock()
        self._handoff: queue.SimpleQueue[_Job] = queue.SimpleQueue()  # jobs for idle workers
        self._pending: collections.deque[_Job] = collections.deque()  # jobs waiting for a slot
        self._busy = 0  # jobs running (or handed to an idle worker)
        self._idle = 0  # workers waiting for a job

    @property
    def saturated(self) -> bool:
        """Whether jobs are waiting for a worker."""
        return bool(self._pending)

    def submit(self, job: _Job) -> None:
        """Run ``job`` in an idle or a new worker, or queue it when the bound is reached."""
        with self._lock:
            if self._busy >= self.max_threads:
                self._pending.append(job)
                return
            self._start_locked(job)

    def _start_locked(self, job: _Job) -> None:
        """Give ``job`` to an idle worker or a new one (the lock is held)."""
        self._busy += 1
        if self._idle:
            self._idle -= 1
            self._handoff.put(job)
            return
        thread = threading.Thread(target=self._work, args=(job,), name="gent-tool", daemon=True)
        try:
            thread.start()
        except BaseException:
            self._busy -= 1
            raise

    def drain(self) -> None:
        """Start waiting jobs while the bound allows (after the bound was raised)."""
        with self._lock:
            while self._pending and self._busy < self.max_threads:
                self._start_locked(self._pending.popleft())

    def _next(self) -> _Job | None:
        """The next job for a worker that just finished one, or ``None`` to stop."""
        with self._lock:
            if self._pending and self._busy <= self.max_threads:
                return self._pending.popleft()  # this worker's slot goes to the waiting job
            self._busy -= 1
            if self._idle >= self._max_idle:
                return None
            self._idle += 1
        try:
            return self._handoff.get(timeout=self._idle_seconds)
        except queue.Empty:
            with self._lock:
                try:
                    # A job handed over between the timeout and the lock is still ours.
                    return self._handoff.get_nowait()
                except queue.Empty:
                    self._idle -= 1
                    return None

    def _work(self, job: _Job | None) -> None:
        while job is not None:
            job()
            job = self._next()


_workers = _DaemonWorkers()
os.register_at_fork(after_in_child=_workers._reset)


def set_max_tool_threads(count: int) -> None:
    """Set how many sync tool calls may run at once, process-wide (default
    :data:`MAX_TOOL_THREADS`); calls beyond it wait for a free worker.

    Raises:
        ValueError: When ``count`` is less than 1.
    """
    if count < 1:
        raise ValueError(f"at least one tool thread is needed, got {count}")
    with _workers._lock:
        _workers.max_threads = count
    _workers.drain()


def tool_threads_saturated() -> bool:
    """Whether sync tool calls are waiting because every worker thread is busy."""
    return _workers.saturated


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # the awaiting task was cancelled meanwhile
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


async def run_sync(function: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """Run ``function(*args, **kwargs)`` in a worker thread and await its result.

    Context variables are copied into the thread, as :func:`asyncio.to_thread` does.
    Exceptions raised by ``function`` are raised here.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()
    call = functools.partial(contextvars.copy_context().run, function, *args, **kwargs)

    abandoned = threading.Event()  # the awaiting task gave up (timeout, cancelled run)
    future.add_done_callback(lambda done: abandoned.set() if done.cancelled() else None)

    def job() -> None:
        if abandoned.is_set():
            return  # it waited in the queue and nobody wants the result any more
        result: Any = None
        error: BaseException | None = None
        try:
            result = call()
        except BaseException as exc:  # noqa: BLE001 - handed to the awaiting task
            error = exc
        with contextlib.suppress(RuntimeError):  # the loop closed while the function ran
            loop.call_soon_threadsafe(_settle, future, result, error)

    _workers.submit(job)
    return await future
