"""Logging runs to the history database as they happen, through the run hooks.

:func:`record_runs` attaches a :class:`HistoryRecorder` to an agent as run-scoped middleware
(``Agent.middleware``): it implements ``gent_run_started``, ``gent_step_finished`` and
``gent_run_finished``, and writes each run's records — the same lines a JSONL transcript
holds (:func:`gent_core.transcript.run_line` and the other line builders), redacted the same way
by the run's ``context.redact`` (the config's secrets masked; the task and the answer kept
exactly) — to the database, in short transactions (the records queued while the writer was
busy go in together). Only the agents the command line attaches it to are logged (``gent
run``, the turns of ``gent chat``, through :class:`~gent_history.session.HistorySession`); an
``Agent`` used from Python logs nothing.

The hooks only queue the writes: the process's writer thread runs them in order
(:class:`~gent_history.writer.Writer`), so a write that waits for another process's lock
never holds up the event loop, the run or Ctrl-C; :meth:`HistoryRecorder.close` waits for
them (after Ctrl-C, without waiting for another process). The connection stays open for the
next run of the process (:mod:`gent_history.shared`). While a run is logged it holds its
lock (:mod:`~gent_history.running`), so no other process resumes it meanwhile.

Logging never stops a run: the first problem (a damaged or locked database, a directory that
cannot be written) is one warning on standard error, and the recorder logs nothing more.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gent_core.errors import GentError
from gent_core.hookspecs import hookimpl
from gent_core.records import redact_record
from gent_core.transcript import (
    Transcript,
    end_line,
    load_transcript,
    resume_line,
    run_line,
    step_line,
)
from gent_history import shared
from gent_history.paths import database_path, logging_enabled
from gent_history.writer import Writer

if TYPE_CHECKING:
    from gent_core import Agent, RunResult, StepRecord
    from gent_core.context import ExecutionContext
    from gent_core.model import Model
    from gent_history.running import RunLock
    from gent_history.store import HistoryStore

__all__ = ["BUILT_IN", "HistoryRecorder", "Resumed", "record_runs"]

logger = logging.getLogger("gent.history")

BUILT_IN = "built-in"
"""The configuration name logged for an agent that did not come from a config file."""


@dataclass
class Resumed:
    """The earlier run that the next run continues (``gent run --resume``).

    Attributes:
        transcript: Its records as read back (header and completed steps); ``None`` to read
            them from ``path`` when the run starts (the agent has locked the file by then).
        path: The transcript file it came from, if any.
        run_id: Its id in the history database, or ``None`` when it came from a transcript
            file.
        conversation_id: The conversation it belongs to in the database, if logged there.
        lock: The logged run's lock (:mod:`~gent_history.running`), held from when
            ``--resume`` found it until the run that continues it ends, so no other process
            continues it meanwhile.
    """

    transcript: Transcript | None = None
    path: str | None = None
    run_id: str | None = None
    conversation_id: str | None = None
    lock: RunLock | None = None

    def read(self) -> Transcript:
        """The transcript (read from ``path`` the first time when not given).

        Raises:
            TranscriptError: When the file cannot be read.
        """
        if self.transcript is None:
            assert self.path is not None
            self.transcript = load_transcript(self.path)
        return self.transcript


def _one_line(error: BaseException) -> str:
    if isinstance(error, GentError):
        where = error.location.describe()
        text = f"{error.message} ({where})" if where else error.message
        return f"{text}; {error.hint}" if error.hint else text
    return f"{type(error).__name__}: {error}"


def _with_seconds(record: dict[str, Any], seconds: float) -> dict[str, Any]:
    """The ``end`` record with ``seconds`` as the run's wall time when it has none: the loop
    measures a run that ends by itself; one interrupted by Ctrl-C ends before it can.
    """
    stats = record.get("stats")
    if not isinstance(stats, dict):
        return record
    times = stats.get("seconds")
    if isinstance(times, dict) and not times.get("total"):
        stats = {**stats, "seconds": {**times, "total": round(seconds, 6)}}
        return {**record, "stats": stats}
    return record


def _copy(store: HistoryStore, logged: str, previous: Transcript, header: dict[str, Any]) -> None:
    """Copy a resumed run's header and steps into the run ``logged``, then a ``resume``
    record (they were redacted when they were first written).
    """
    store.add_record(logged, dict(previous.header) or header)
    for step in previous.steps:
        store.add_record(logged, step_line(step))
    store.add_record(logged, resume_line(len(previous.steps)))


@dataclass
class _Write:
    """A write queued for the writer's thread (see :meth:`HistoryRecorder._submit`)."""

    write: Callable[[HistoryStore], None] | None
    redact: Callable[[str], str]
    then: Callable[[bool], None] | None


class _Run:
    """What the recorder keeps of a run in progress: its id in the database, when it
    started, and the run locks to let go of when its end is written.
    """

    def __init__(self, logged: str, locks: list[RunLock]) -> None:
        self.logged = logged
        self.started = time.perf_counter()
        self.locks = locks

    def release(self) -> None:
        for lock in self.locks:
            lock.release()


class HistoryRecorder:
    """Writes the runs of one agent to the history database (see the module docstring).

    Args:
        agent: The agent whose runs are logged (its system prompt, configuration and config
            file go into each run's header).
        path: The database (default: :func:`~gent_history.paths.database_path`).
        config_name: The configuration's name in ``gent logs`` (default: the agent's config
            file, or ``built-in``).
        conversation_id: The conversation the runs join (default: the first run starts one,
            and later runs of this recorder join it, as the turns of ``gent chat`` do).
        resumed: The earlier run the next run continues: its header and steps are copied
            first, then a ``resume`` record, so the logged run holds the whole run.
        timeout: Seconds a write waits for another process's write to the database.

    Attributes:
        failed: Whether logging was given up after a problem (already warned about).
    """

    def __init__(
        self,
        agent: Agent,
        *,
        path: Path | str | None = None,
        config_name: str | None = None,
        conversation_id: str | None = None,
        resumed: Resumed | None = None,
        timeout: float = 5.0,
    ) -> None:
        self._agent = agent
        self.path = Path(path) if path is not None else database_path()
        self.config_name = config_name or (
            str(agent.config_file) if agent.config_file is not None else BUILT_IN
        )
        self.conversation_id = conversation_id
        self.timeout = timeout
        self._resumed = resumed
        self._runs: dict[str, _Run] = {}
        self._writer = Writer()
        self._queue: list[_Write] = []
        self._queue_lock = threading.Lock()
        self._flush_queued = False
        self.written = 0
        """How many writes are in the database (for tests that count work, not time)."""
        self._hurried = threading.Event()
        self._interrupted = False
        self._run_id: str | None = None
        self._started: threading.Event | None = None
        self.failed = False

    @property
    def run_id(self) -> str | None:
        """The id of the latest run, once it is in the database (``None`` before one, or
        when logging failed). Read while that run's first write is queued, it waits for that
        write; after Ctrl-C, without waiting for another process (see :meth:`close`).
        """
        started = self._started
        if started is not None and not started.is_set():
            if self._interrupted or self._runs:
                self._hurry()
            started.wait()
        return self._run_id

    # -- writing (on the writer's thread), and giving up ----------------------------------

    def _give_up(self, error: BaseException, redact: Callable[[str], str]) -> None:
        """Log nothing more, with one warning."""
        self.failed = True
        logged, self._run_id = self._run_id, None
        if logged is not None:  # its start is in the database: gent logs shows it
            what = f"the rest of run {logged} is not logged"
        else:
            what = "this run is not logged"
        logger.warning("%s: %s", what, redact(_one_line(error)))

    def _submit(
        self,
        context: ExecutionContext,
        write: Callable[[HistoryStore], None] | None,
        then: Callable[[bool], None] | None = None,
    ) -> None:
        """Queue ``write`` for the writer's thread, then ``then(written)`` (with ``False`` when
        it failed or logging was given up); the first problem gives up logging. The writes
        queued while the writer is busy go into the database together, in one transaction.
        """
        with self._queue_lock:
            self._queue.append(_Write(write, context.redact, then))
            if self._flush_queued:
                return
            self._flush_queued = True
        self._writer.submit(self._flush)

    def _flush(self) -> None:
        """Write the queued writes in one transaction (on the writer's thread)."""
        with self._queue_lock:
            writes, self._queue = self._queue, []
            self._flush_queued = False
        written = False
        try:
            if not self.failed:
                store = shared.store(self.path, self.timeout)
                with store.waiting(self.timeout, self._hurried), store.batch():
                    for item in writes:
                        if item.write is not None:
                            item.write(store)
                written = True
                self.written += sum(item.write is not None for item in writes)
        except Exception as error:  # noqa: BLE001 - logging never stops a run
            shared.discard()  # a connection left in a failed transaction is not reused
            self._give_up(error, writes[-1].redact)
        finally:
            for item in writes:
                if item.then is not None:
                    item.then(written)

    def _add(self, context: ExecutionContext, record: dict[str, Any]) -> None:
        run = self._runs.get(context.run_id)
        if run is None or self.failed:
            return
        redacted = redact_record(record, context.redact)  # here: the record is the run's now
        self._submit(context, lambda store: store.add_record(run.logged, redacted))

    def close(self) -> None:
        """Wait for the writes queued so far (the database stays open for the process's
        next run: :mod:`gent_history.shared`). After a run interrupted by Ctrl-C (or one that
        never ended) the writes do not wait for another process holding the database: what
        cannot be written at once is left out, with one warning, so Ctrl-C ends the command
        without that wait.
        """
        if self._interrupted or self._runs:
            self._hurry()
        try:
            self._writer.drain()
        except KeyboardInterrupt:  # Ctrl-C while waiting for another process: stop waiting
            self._hurry()
            self._writer.drain()
            raise
        finally:
            for run in self._runs.values():
                run.release()
            self._runs.clear()

    def _hurry(self) -> None:
        self._hurried.set()

    # -- the run hooks --------------------------------------------------------------------

    @hookimpl
    def gent_run_started(self, task: str, model: Model, context: ExecutionContext) -> None:
        """Add the run to the database, with its header (and the resumed run's steps)."""
        del model
        if self.failed:
            return
        from gent_history.store import new_run_id

        resumed, self._resumed = self._resumed, None
        agent = self._agent
        conversation = self.conversation_id
        if resumed is not None and resumed.conversation_id is not None:
            conversation = resumed.conversation_id
        header = run_line(task, agent)
        redacted = redact_record(header, context.redact)
        previous: Transcript | None = None
        if resumed is not None:
            try:  # now, before the run appends to a resumed transcript file
                previous = resumed.read()
            except Exception as error:  # noqa: BLE001 - logging never stops a run
                self._give_up(error, context.redact)
                return
        logged = new_run_id()
        self._run_id = None  # until its start is written
        run = self._runs[context.run_id] = _Run(logged, self._held(resumed))
        if self.conversation_id is None:
            self.conversation_id = conversation or logged

        def start(store: HistoryStore) -> None:
            run.locks.extend(self._own_lock(logged))  # before anyone can see the run
            store.start_run(
                task=task,
                config_name=self.config_name,
                config=redacted.get("config"),
                system_prompt=redacted.get("system_prompt"),
                conversation_id=conversation,
                resumed_from=resumed.run_id if resumed is not None else None,
                run_id=logged,
            )

        started = self._started = threading.Event()

        def written(ok: bool) -> None:
            if ok:
                self._run_id = logged  # in the database now: gent logs show, --resume find it
            started.set()

        self._submit(context, start, written)
        if previous is None:
            self._add(context, header)
        else:
            self._submit(context, lambda store: _copy(store, logged, previous, redacted))

    @staticmethod
    def _held(resumed: Resumed | None) -> list[RunLock]:
        """The resumed run's lock (held since ``--resume`` found it), if any."""
        return [] if resumed is None or resumed.lock is None else [resumed.lock]

    def _own_lock(self, logged: str) -> list[RunLock]:
        """The new run's own lock, taken on the writer's thread before its start is written
        (no other process knows the run before that).
        """
        from gent_history.running import lock_run

        try:
            own = lock_run(self.path, logged)
        except GentError:  # pragma: no cover - a new id: nobody else holds its lock
            own = None
        return [] if own is None else [own]

    @hookimpl
    def gent_step_finished(self, record: StepRecord, context: ExecutionContext) -> None:
        """Add the step (its tool calls fill the ``tool_calls`` table)."""
        self._add(context, step_line(record))

    @hookimpl
    def gent_run_finished(self, result: RunResult, context: ExecutionContext) -> None:
        """Add the run's end: answer, stop reason, tokens and seconds (measured here when the
        run was interrupted before the loop could measure it); then let go of its locks.
        """
        run = self._runs.get(context.run_id)
        if run is None:
            return
        self._interrupted = result.stop_reason == "cancelled"
        self._add(context, _with_seconds(end_line(result), time.perf_counter() - run.started))
        del self._runs[context.run_id]
        self._submit(context, None, lambda _: run.release())  # after the end is written


def record_runs(
    agent: Agent,
    *,
    config_name: str | None = None,
    conversation_id: str | None = None,
    resumed: Resumed | None = None,
) -> HistoryRecorder | None:
    """Log every run of ``agent`` to the history database from now on: the one function
    ``gent run`` and ``gent chat`` call (a chat calls it once; its turns form one
    conversation). Nothing is logged, and ``None`` returned, when logging is switched off
    (``gent logs off``).

    The recorder is added to ``agent.middleware`` (its hooks fire in the agent's runs only);
    close it (:meth:`HistoryRecorder.close`) when the agent is done.

    Args:
        agent: The agent.
        config_name: The configuration's name as ``gent logs`` shows it (default: the
            agent's config file, or ``built-in``).
        conversation_id: Join this logged conversation (``gent run --continue``).
        resumed: The earlier run the next run resumes (``gent run --resume``).
    """
    try:
        if not logging_enabled():
            return None
    except OSError as error:  # the data directory cannot be looked at
        logger.warning("runs are not logged: %s: %s", database_path().parent, error.strerror)
        return None
    recorder = HistoryRecorder(
        agent, config_name=config_name, conversation_id=conversation_id, resumed=resumed
    )
    agent.middleware.append(recorder)
    return recorder
