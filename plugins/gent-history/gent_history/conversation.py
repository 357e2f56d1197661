"""``--continue`` (``-c``) of ``gent run`` and ``gent chat``: the last logged conversation,
read back from the run history so the next run or chat turn joins it.

A conversation is the runs that share a ``conversation_id`` in the history database (the
turns of one ``gent chat``, or a ``gent run`` and the runs that continued it); the last one is
the conversation of the newest logged run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gent_core.cliframe import UsageError

if TYPE_CHECKING:
    from gent_core.messages import Message
    from gent_history.store import RunSummary

__all__ = ["Continued", "last_conversation"]


@dataclass
class Continued:
    """The conversation a ``--continue`` joins.

    Attributes:
        conversation_id: Its id in the history database.
        history: Its messages, oldest first (each turn's task and steps).
        header: The ``run`` record of its newest run (the configuration it recorded).
        last: Its newest run.
        turns: How many turns it has (a run that a later run resumed is one turn with it).
    """

    conversation_id: str
    history: list[Message]
    header: dict[str, Any]
    last: RunSummary
    turns: int


def last_conversation(start_hint: str) -> Continued:
    """The conversation of the newest logged run.

    Args:
        start_hint: The command that starts a conversation, for the message when nothing is
            logged (``gent run "TASK"``).

    Raises:
        UsageError: Nothing is logged.
        GentError: The history cannot be read (``HistoryError``) or holds a damaged record
            (``TranscriptError``).
    """
    from gent_history.paths import database_path
    from gent_history.replay import conversation_history, logged_transcript
    from gent_history.store import HistoryStore

    with HistoryStore(database_path()) as store:
        last = store.last_run()
        if last is None:
            raise UsageError(
                f"there is no logged conversation to continue (nothing is logged in {store.path})",
                hint=f"Start one with: {start_hint}",
            )
        runs = store.list_runs(conversation_id=last.conversation_id, limit=None)
        resumed = {run.resumed_from for run in runs if run.resumed_from}
        return Continued(
            conversation_id=last.conversation_id,
            history=conversation_history(store, last.conversation_id),
            header=dict(logged_transcript(store, last).header),
            last=last,
            turns=sum(1 for run in runs if run.id not in resumed),
        )
