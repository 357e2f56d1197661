"""Reading logged runs back as runs: the run ``--resume ID`` continues, and the conversation
``--continue`` continues.

A logged run's records are the lines of a transcript, so both go through the transcript's own
reader (:func:`~gent_core.transcript.transcript_from_records`) and the agent's replay
of steps (:func:`~gent_core.transcript.conversation_messages`): one rule for a file and the
database alike.
"""

from __future__ import annotations

from gent_core.messages import Message
from gent_core.transcript import Transcript, conversation_messages, transcript_from_records
from gent_history.recorder import Resumed
from gent_history.running import lock_run
from gent_history.store import HistoryError, HistoryStore, RunSummary

__all__ = ["RESUMABLE", "conversation_history", "logged_transcript", "resumable_run"]

RESUMABLE = "cancelled"
"""The stop reason of a logged run that ``--resume`` continues (an interrupted run); a run
with no end at all (its process was killed) is resumable too."""


def logged_transcript(store: HistoryStore, run: RunSummary) -> Transcript:
    """The logged run's records read as a transcript.

    Raises:
        TranscriptError: When a record is damaged (naming the run and the record).
        HistoryError: When the database cannot be read.
    """
    return transcript_from_records(store.records(run.id), source=f"the logged run {run.id}")


def resumable_run(store: HistoryStore, run_id: str) -> Resumed:
    """The logged run ``run_id`` (or an unambiguous start of it), ready to resume: its
    header and completed steps, without the end of an interruption, and its lock
    (:mod:`~gent_history.running`), held until the run that continues it ends.

    Raises:
        HistoryError: No such run, it is still running in another process, or it finished
            (with an answer or at a limit): the hint says how to continue its conversation
            instead.
        TranscriptError: A damaged record.
    """
    run = store.get_run(run_id)
    lock = lock_run(store.path, run.id)  # refused while another process runs it
    try:
        transcript = _interrupted_transcript(store, run)
    except BaseException:
        if lock is not None:
            lock.release()
        raise
    return Resumed(transcript, run_id=run.id, conversation_id=run.conversation_id, lock=lock)


def _interrupted_transcript(store: HistoryStore, run: RunSummary) -> Transcript:
    """The run's records without the end of its interruption (refused if it finished)."""
    records = store.records(run.id)
    if records and records[-1].get("type") == "end":
        reason = records[-1].get("stop_reason")
        if reason != RESUMABLE:
            raise HistoryError(
                f"the logged run {run.id} already finished ({reason}); nothing to resume "
                "(only an interrupted run can be resumed)",
                hint=f'To go on from it with a new task: gent run --continue "TASK" (it '
                f"continues the newest conversation; this run's is {run.conversation_id}).",
            )
        records = records[:-1]
    return transcript_from_records(records, source=f"the logged run {run.id}")


def conversation_history(store: HistoryStore, conversation_id: str) -> list[Message]:
    """The messages of a logged conversation, for the run that continues it: each run's
    task and steps, oldest first. A run that a later run resumed is left out (the later
    run holds its steps).

    Raises:
        HistoryError: When the database cannot be read.
        TranscriptError: A damaged record.
    """
    runs = store.list_runs(conversation_id=conversation_id, limit=None)
    resumed = {run.resumed_from for run in runs if run.resumed_from}
    turns = []
    for run in reversed(runs):
        if run.id in resumed:
            continue
        transcript = logged_transcript(store, run)
        turns.append((transcript.task, transcript.steps))
    return conversation_messages(turns)
