"""A run's records as the lines of a transcript, for a run history kept elsewhere.

The JSONL transcript ``gent run --transcript`` writes and a run history's database (such as
gent-history's) hold the same lines, built and read back here in one place:

* the lines, before redaction (a recorder redacts them with the run's ``context.redact``,
  :func:`~gent_core.records.redact_record`): the header (:func:`run_line`), a resumed run's
  mark (:func:`resume_line`), one completed step (:func:`step_line`) and the run's end
  (:func:`end_line`);
* the lines read back, with every check a transcript file gets: from records
  (:func:`transcript_from_records`) or from a file (:func:`load_transcript`), as a
  :class:`Transcript`, or a :class:`TranscriptError` naming what holds them and the line;
* the exclusive lock a transcript's writer holds on its file (:func:`lock_file`), so a run
  logged elsewhere is guarded by the same rule;
* the messages that earlier runs of a conversation leave for the next one
  (:func:`conversation_messages`), replayed from their steps as a resumed run replays its own.

A toolkit with a floor: it imports only the run records, the hook specifications and the
foundation, never the command line, the agent loop or the configuration. Names load lazily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core._lazy import export_names, load_export

_EXPORTS: dict[str, str] = {
    # the lines, built and read back
    "Transcript": "gent_core._transcript.lines",
    "TranscriptError": "gent_core._transcript.lines",
    "end_line": "gent_core._transcript.lines",
    "load_transcript": "gent_core._transcript.lines",
    "resume_line": "gent_core._transcript.lines",
    "run_line": "gent_core._transcript.lines",
    "step_line": "gent_core._transcript.lines",
    "transcript_from_records": "gent_core._transcript.lines",
    # the writer's lock
    "lock_file": "gent_core._transcript.writer",
    # the conversation the records stand for
    "conversation_messages": "gent_core._replay",
}

if TYPE_CHECKING:
    from gent_core._replay import (
        conversation_messages,
    )
    from gent_core._transcript.lines import (
        Transcript,
        TranscriptError,
        end_line,
        load_transcript,
        resume_line,
        run_line,
        step_line,
        transcript_from_records,
    )
    from gent_core._transcript.writer import (
        lock_file,
    )

__all__ = [
    "Transcript",
    "TranscriptError",
    "conversation_messages",
    "end_line",
    "load_transcript",
    "lock_file",
    "resume_line",
    "run_line",
    "step_line",
    "transcript_from_records",
]


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())
