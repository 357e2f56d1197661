"""The thread that writes a recorder's records, so that the event loop never waits for SQLite.

A write can wait seconds for another process's lock on the database; in the event loop, that
wait would stall the run's tools, its live view and its Ctrl-C (SQLite waits in C, where no
signal handler runs). :class:`Writer` runs the jobs given to it on a thread of its own, one
after another in the order given, and :meth:`Writer.drain` waits until all are done.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable

__all__ = ["Writer"]

logger = logging.getLogger("gent.history")


class Writer:
    """Runs jobs in order on one daemon thread, started with the first job.

    A job should not raise (the recorder's jobs turn every problem into one warning); one that
    does is logged at debug level, and the next one runs.

    Args:
        name: The thread's name.
    """

    def __init__(self, name: str) -> None:
        self._name = name
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._ending = False
        self.done = 0
        """How many jobs have run (for tests that count work, not time)."""

    def submit(self, job: Callable[[], None]) -> None:
        """Queue ``job`` after the ones given before; it runs on the writer's thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name=self._name, daemon=True)
            self._thread.start()
        self._jobs.put(job)

    def drain(self) -> None:
        """Wait until every job given so far has run (the thread then ends; the next job
        starts another). Interrupted (Ctrl-C), it may be called again to go on waiting.
        """
        thread = self._thread
        if thread is None:
            return
        if not self._ending:
            self._ending = True
            self._jobs.put(None)
        thread.join()
        self._thread = None
        self._ending = False

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            try:
                job()
            except Exception:
                logger.debug("a history job failed", exc_info=True)
            finally:
                self.done += 1
