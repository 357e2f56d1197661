"""The thread that writes the recorders' records, so that the event loop never waits for SQLite.

A write can wait seconds for another process's lock on the database; in the event loop, that
wait would stall the run's tools, its live view and its Ctrl-C (SQLite waits in C, where no
signal handler runs). One daemon thread per process, started with the first job and kept for
the next runs (starting a thread per run costs more than a run's writes), runs every job given
to it, one after another in the order given; each :class:`Writer` is one recorder's share of
it, and :meth:`Writer.drain` waits until that recorder's jobs are done. Since only this
thread touches the process's history connection (:mod:`gent_history.shared`), the jobs of
several recorders never interleave inside one transaction.

A child made by ``fork`` starts with no writer thread (the parent's does not exist there): its
first job starts its own.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
from collections.abc import Callable

__all__ = ["Writer", "run_on_writer"]

logger = logging.getLogger("gent.history")

_Job = Callable[[], None]


class _Thread:
    """The process's writer thread and its queue of jobs."""

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._work, name="gent-history", daemon=True)
        self.thread.start()

    def _work(self) -> None:
        while True:
            job = self.jobs.get()
            try:
                job()
            except Exception:
                logger.debug("a history job failed", exc_info=True)


_current: _Thread | None = None
_start_lock = threading.Lock()


def _thread() -> _Thread:
    global _current
    with _start_lock:
        if _current is None:
            _current = _Thread()
        return _current


def _forget_in_child() -> None:
    global _current, _start_lock
    _current = None
    _start_lock = threading.Lock()


if hasattr(os, "register_at_fork"):  # not on Windows, which has no fork
    os.register_at_fork(after_in_child=_forget_in_child)


def run_on_writer(job: _Job) -> threading.Event:
    """Queue ``job`` after every job given so far; the event returned is set once it has run."""
    done = threading.Event()

    def marked() -> None:
        try:
            job()
        finally:
            done.set()

    _thread().jobs.put(marked)
    return done


class Writer:
    """One recorder's jobs, run in order on the process's writer thread.

    A job should not raise (the recorder's jobs turn every problem into one warning); one that
    does is logged at debug level, and the next one runs.
    """

    def __init__(self) -> None:
        self._last: threading.Event | None = None
        self.done = 0
        """How many of these jobs have run (for tests that count work, not time)."""

    def submit(self, job: _Job) -> None:
        """Queue ``job`` after the ones given before; it runs on the writer's thread."""

        def counted() -> None:
            try:
                job()
            finally:
                self.done += 1

        self._last = run_on_writer(counted)

    def drain(self) -> None:
        """Wait until every job given so far has run. Interrupted (Ctrl-C), it may be called
        again to go on waiting.
        """
        last = self._last
        if last is None:
            return
        last.wait()
        if self._last is last:
            self._last = None
