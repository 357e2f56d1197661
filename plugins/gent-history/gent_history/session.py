"""The run history of one command that runs agents (``gent run``, ``gent chat``): what
``--resume ID`` and ``--continue`` continue, and the recorder that logs the command's runs.

The command asks for it through the ``gent_resolve_run`` hook before it builds its agent
(:func:`open_session`), attaches it to the agent (:meth:`HistorySession.attach`) and closes
it when the agent is done (:meth:`HistorySession.close`). ``--resume`` with a transcript file
is the command's own; the session then only copies that run's steps into the logged run.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gent_core.workspace import probe_path

if TYPE_CHECKING:
    from gent_core import Agent
    from gent_core.messages import Message
    from gent_history.recorder import HistoryRecorder, Resumed

__all__ = ["HistorySession", "is_run_id", "open_session"]

logger = logging.getLogger("gent.cli")


def is_run_id(value: str) -> bool:
    """Whether ``--resume VALUE`` names a logged run (a run id or its start) rather than a
    transcript file: no such file, and only the characters of a run id.
    """
    from gent_history.store import RUN_ID_ALPHABET

    return (
        0 < len(value) <= 26
        and set(value.upper()) <= set(RUN_ID_ALPHABET)
        and not probe_path(value).exists
    )


class HistorySession:
    """The run history of one command (a :class:`gent_core.hookspecs.RunHistory`).

    Args:
        log: Whether the command's runs are logged (``False`` with ``--no-log``).
        resumed: The earlier run the next run continues (``--resume``), if any.
        conversation_id: The logged conversation the runs join (``--continue``), if any.
        config_name: The configuration name of the resumed or continued run, used when the
            agent is built from the configuration that run recorded.
    """

    def __init__(
        self,
        *,
        log: bool,
        resumed: Resumed | None = None,
        conversation_id: str | None = None,
        config_name: str | None = None,
    ) -> None:
        self.transcript: object | None = None
        self.history: Sequence[Message] = []
        self.header: dict[str, Any] | None = None
        self.where = ""
        self.continued: str | None = None
        self._log = log
        self._resumed = resumed
        self._conversation_id = conversation_id
        self._config_name = config_name
        self._recorder: HistoryRecorder | None = None

    @property
    def run_id(self) -> str | None:
        """The id of the latest run logged so far, or ``None``."""
        return self._recorder.run_id if self._recorder is not None else None

    @property
    def conversation_id(self) -> str | None:
        """The logged conversation the runs join (``--continue``), or ``None``."""
        return self._conversation_id

    def attach(self, agent: Agent, *, recorded: bool) -> None:
        """Log every run of ``agent`` (unless ``--no-log`` or ``gent logs off``)."""
        from gent_history.recorder import record_runs

        if not self._log:
            return
        self._recorder = record_runs(
            agent,
            config_name=self._config_name if recorded else None,
            conversation_id=self._conversation_id,
            resumed=self._resumed,
        )

    def close(self) -> None:
        """Wait for the recorder's writes and close the database; say where the run is."""
        recorder, self._recorder = self._recorder, None
        if recorder is None:
            return
        try:
            recorder.close()
        finally:
            if recorder.run_id is not None:
                self._recorder = recorder  # run_id stays readable (the resume hint)
                logger.info(
                    "logged as run %s (gent logs show %s)", recorder.run_id, recorder.run_id
                )


def open_session(
    *, resume: str | None, continue_conversation: bool, log: bool, command: str
) -> HistorySession:
    """The run history of a command (the ``gent_resolve_run`` hook of gent-history).

    Raises:
        GentError: No such logged run, one that cannot be resumed, nothing to continue, or a
            history that cannot be read.
    """
    from gent_history.recorder import Resumed

    if resume is not None and not is_run_id(resume):
        return HistorySession(log=log, resumed=Resumed(path=resume))
    if resume is not None:
        return _resumed_session(resume, log)
    if continue_conversation:
        return _continued_session(command, log)
    return HistorySession(log=log)


def _resumed_session(run_id: str, log: bool) -> HistorySession:
    """``--resume ID``: the logged run, read back and locked until its continuation ends."""
    from gent_history.paths import database_path
    from gent_history.replay import resumable_run
    from gent_history.store import HistoryStore

    with HistoryStore(database_path()) as store:
        resumed = resumable_run(store, run_id)
        run = store.get_run(resumed.run_id or run_id)
    session = HistorySession(log=log, resumed=resumed, config_name=run.config_name)
    session.transcript = resumed.read()
    session.header = dict(resumed.read().header)
    session.where = f"the logged run {run.id}"
    return session


def _continued_session(command: str, log: bool) -> HistorySession:
    """``--continue``: the last logged conversation, its runs the history of the next."""
    from gent_history.conversation import last_conversation

    start = f'{command} "TASK"' if command == "gent run" else command
    continued = last_conversation(start)
    session = HistorySession(
        log=log,
        conversation_id=continued.conversation_id,
        config_name=continued.last.config_name,
    )
    session.history = continued.history
    session.header = continued.header
    session.where = f"the logged run {continued.last.id}"
    turns = f"{continued.turns} earlier turn" + ("" if continued.turns == 1 else "s")
    session.continued = f"conversation {continued.conversation_id} ({turns})"
    return session
