"""Running sync tool code off the event loop, in daemon worker threads.

:func:`run_sync` awaits a sync function that runs in a worker thread, so the event loop (and
every other tool call) keeps going while it works.

Why not :func:`asyncio.to_thread`: its executor's threads are joined when the interpreter
exits, so one sync tool stuck in a blocking call (a network read without timeout) would keep
``gent run`` from exiting long after the tool call timed out. The workers here are daemon
threads, reused while idle (so a call costs a queue hand-off, not a thread start), and a new
one starts whenever none is idle, so stuck tools never starve the others.

A thread cannot be killed: when the awaiting task is cancelled (timeout, cancelled run) the
function keeps running to its end and its result is dropped. Long sync tools should poll
``context.cancellation.cancelled`` and return early.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import os
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["run_sync"]

T = TypeVar("T")

_Job = Callable[[], None]


class _DaemonWorkers:
    """A pool of daemon threads that grows on demand and keeps a few idle ones."""

    def __init__(self, max_idle: int = 8, idle_seconds: float = 30.0) -> None:
        self._max_idle = max_idle
        self._idle_seconds = idle_seconds
        self._reset()

    def _reset(self) -> None:
        self._lock = threading.Lock()
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._idle = 0

    def submit(self, job: _Job) -> None:
        """Run ``job`` in an idle worker, or in a new one when none is idle."""
        with self._lock:
            if self._idle:
                self._idle -= 1
                self._jobs.put(job)
                return
        threading.Thread(target=self._work, args=(job,), name="gent-tool", daemon=True).start()

    def _work(self, job: _Job) -> None:
        while True:
            job()
            with self._lock:
                if self._idle >= self._max_idle:
                    return
                self._idle += 1
            try:
                job = self._jobs.get(timeout=self._idle_seconds)
            except queue.Empty:
                with self._lock:
                    try:
                        # A job handed over between the timeout and the lock is still ours.
                        job = self._jobs.get_nowait()
                    except queue.Empty:
                        self._idle -= 1
                        return


_workers = _DaemonWorkers()
os.register_at_fork(after_in_child=_workers._reset)


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

    def job() -> None:
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
