"""A run's transcript file as the run starts: opened (and locked) for writing, and, when the
run resumes an interrupted one, that run's task and completed steps read from it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from gent_core._agent.transcript import Transcript, TranscriptWriter, load_transcript
from gent_core.errors import GentError
from gent_core.records import StepRecord

__all__ = ["interrupted_run", "open_run_transcript"]


def interrupted_run(transcript: Path | str | Transcript) -> tuple[str, list[StepRecord]]:
    """The task and the completed steps of the unfinished run in ``transcript`` (a file, or
    a transcript already read from the history database).

    Raises:
        GentError: When the transcript is unreadable or its run already finished.
    """
    previous = transcript if isinstance(transcript, Transcript) else load_transcript(transcript)
    if previous.finished:
        where = "the transcript" if isinstance(transcript, Transcript) else transcript
        raise GentError(
            f"the run in {where} already finished "
            f"({previous.end.get('stop_reason') if previous.end else ''}); nothing to resume"
        )
    return previous.task, previous.steps


def open_run_transcript(
    transcript: Path | str | Transcript | None,
    *,
    redact: Callable[[str], str] | None,
    resume: bool,
) -> tuple[TranscriptWriter | None, tuple[str, list[StepRecord]] | None]:
    """The writer of a run's transcript file (``None`` without a file: no transcript, or one
    already read from the history database) and, when ``resume``, the interrupted run's task
    and steps.

    The writer opens and locks the file first: a resume reads it under the lock, so no other
    run can be writing it meanwhile. It is closed again when reading fails.

    Raises:
        GentError: When the file is locked by another writer, unreadable, or its run already
            finished.
    """
    path = None if isinstance(transcript, Transcript) else transcript
    writer = TranscriptWriter(path, redact=redact, resume=resume) if path else None
    if not resume:
        return writer, None
    assert transcript is not None  # a resume always names its transcript
    try:
        return writer, interrupted_run(transcript)
    except BaseException:
        if writer is not None:
            writer.close()
        raise
