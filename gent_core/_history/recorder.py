"""Logging runs to the history database as they happen, through the run hooks.

:func:`record_runs` attaches a :class:`HistoryRecorder` to an agent as run-scoped middleware
(``Agent.middleware``): it implements ``gent_run_started``, ``gent_step_finished`` and
``gent_run_finished``, and writes each run's records — the same lines a JSONL transcript holds
(:mod:`gent_core._agent.transcript`), redacted the same way by the run's ``context.redact``
(the config's secrets masked; the task and the answer kept exactly) — to the database, one
short transaction per record. Only the agents the command line attaches it to are logged
(``gent run``, the turns of ``gent chat``); an ``Agent`` used from Python logs nothing.

Logging never stops a run: the first problem (a damaged or locked database, a directory that
cannot be written) is one warning on standard error, and the recorder logs nothing more.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gent_core._agent.records import redact_record
from gent_core._agent.transcript import Transcript, end_line, resume_line, run_line, step_line
from gent_core._history.paths import database_path, logging_enabled
from gent_core.errors import GentError
from gent_core.hookspecs import hookimpl

if TYPE_CHECKING:
    from gent_core._agent import Agent, RunResult, StepRecord
    from gent_core._history.store import HistoryStore
    from gent_core.context import ExecutionContext
    from gent_core.model import Model

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
    """

    transcript: Transcript | None = None
    path: str | None = None
    run_id: str | None = None
    conversation_id: str | None = None

    def read(self) -> Transcript:
        """The transcript (read from ``path`` the first time when not given).

        Raises:
            TranscriptError: When the file cannot be read.
        """
        if self.transcript is None:
            from gent_core._agent.transcript import load_transcript

            assert self.path is not None
            self.transcript = load_transcript(self.path)
        return self.transcript


def _one_line(error: BaseException) -> str:
    if isinstance(error, GentError):
        where = error.location.describe()
        text = f"{error.message} ({where})" if where else error.message
        return f"{text}; {error.hint}" if error.hint else text
    return f"{type(error).__name__}: {error}"


class HistoryRecorder:
    """Writes the runs of one agent to the history database (see the module docstring).

    Args:
        agent: The agent whose runs are logged (its system prompt, configuration and config
            file go into each run's header).
        path: The database (default: :func:`~gent_core._history.paths.database_path`).
        config_name: The configuration's name in ``gent logs`` (default: the agent's config
            file, or ``built-in``).
        conversation_id: The conversation the runs join (default: the first run starts one,
            and later runs of this recorder join it, as the turns of ``gent chat`` do).
        resumed: The earlier run the next run continues: its header and steps are copied
            first, then a ``resume`` record, so the logged run holds the whole run.

    Attributes:
        run_id: The id of the latest run logged (``None`` before one, or when logging failed).
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
    ) -> None:
        self._agent = agent
        self.path = Path(path) if path is not None else database_path()
        self.config_name = config_name or (
            str(agent.config_file) if agent.config_file is not None else BUILT_IN
        )
        self.conversation_id = conversation_id
        self._resumed = resumed
        self._store: HistoryStore | None = None
        self._runs: dict[str, str] = {}
        self.run_id: str | None = None
        self.failed = False

    # -- the store, and giving up ---------------------------------------------------------

    def _open(self) -> HistoryStore:
        if self._store is None:
            from gent_core._history.store import HistoryStore

            self._store = HistoryStore(self.path)
        return self._store

    def _give_up(self, error: BaseException, context: ExecutionContext) -> None:
        self.failed = True
        self._runs.clear()
        self.run_id = None
        logger.warning("this run is not logged: %s", context.redact(_one_line(error)))
        self.close()

    def close(self) -> None:
        """Close the database (a later run opens it again)."""
        if self._store is not None:
            store, self._store = self._store, None
            try:
                store.close()
            except Exception:
                logger.debug("closing the history database failed", exc_info=True)

    def _add(self, context: ExecutionContext, record: dict[str, Any]) -> None:
        logged = self._runs.get(context.run_id)
        if logged is None or self.failed:
            return
        try:
            self._open().add_record(logged, redact_record(record, context.redact))
        except Exception as error:  # noqa: BLE001 - logging never stops a run
            self._give_up(error, context)

    # -- the run hooks --------------------------------------------------------------------

    @hookimpl
    def gent_run_started(self, task: str, model: Model, context: ExecutionContext) -> None:
        """Add the run to the database, with its header (and the resumed run's steps)."""
        del model
        if self.failed:
            return
        resumed, self._resumed = self._resumed, None
        agent = self._agent
        conversation = self.conversation_id
        if resumed is not None and resumed.conversation_id is not None:
            conversation = resumed.conversation_id
        config_file = str(agent.config_file) if agent.config_file is not None else None
        header = run_line(
            task, agent.system_prompt(), config=agent.config_summary, config_file=config_file
        )
        redacted = redact_record(header, context.redact)
        try:
            store = self._open()
            logged = store.start_run(
                task=task,
                config_name=self.config_name,
                config=redacted.get("config"),
                system_prompt=redacted.get("system_prompt"),
                conversation_id=conversation,
                resumed_from=resumed.run_id if resumed is not None else None,
            )
        except Exception as error:  # noqa: BLE001 - logging never stops a run
            self._give_up(error, context)
            return
        self._runs[context.run_id] = logged
        self.run_id = logged
        if self.conversation_id is None:
            self.conversation_id = conversation or logged
        if resumed is None:
            self._add(context, header)
            return
        try:
            previous = resumed.read()
        except Exception as error:  # noqa: BLE001 - logging never stops a run
            self._give_up(error, context)
            return
        self._add(context, dict(previous.header) or header)
        for step in previous.steps:
            self._add(context, step_line(step))
        self._add(context, resume_line(len(previous.steps)))

    @hookimpl
    def gent_step_finished(self, record: StepRecord, context: ExecutionContext) -> None:
        """Add the step (its tool calls fill the ``tool_calls`` table)."""
        self._add(context, step_line(record))

    @hookimpl
    def gent_run_finished(self, result: RunResult, context: ExecutionContext) -> None:
        """Add the run's end: answer, stop reason, tokens and seconds."""
        self._add(context, end_line(result))
        self._runs.pop(context.run_id, None)


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
