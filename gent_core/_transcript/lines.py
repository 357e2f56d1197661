"""The lines of a run's records, built and read back: what a transcript file holds line by
line and a run history's database record by record (gent-history's recorder builds its
records here, through :mod:`gent_core.transcript`, and a logged run reads back through
:func:`transcript_from_records`).

Each builder returns its line before redaction; the writer redacts it with the run's
``context.redact`` (:func:`~gent_core.records.redact_record`) as it writes it. The reader
checks every line, from a file (:func:`load_transcript`) or the database alike.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from gent_core._bounded import TRANSCRIPT_FILE, read_file, read_json
from gent_core._record_fields import FieldReader, RecordError
from gent_core._serialize import OUTPUT_MAX_DEPTH
from gent_core.errors import GentError, InputError, Location
from gent_core.records import RunResult, StepRecord

__all__ = [
    "TRANSCRIPT_VERSION",
    "RecordedAgent",
    "Transcript",
    "TranscriptError",
    "end_line",
    "interrupted_run",
    "load_transcript",
    "resume_line",
    "run_line",
    "step_line",
    "transcript_from_records",
]

TRANSCRIPT_VERSION = 1


class TranscriptError(GentError):
    """A transcript that cannot be written or read; the location names the file (and line)."""


class RecordedAgent(Protocol):
    """What a run's header records of its agent (an :class:`~gent_core.Agent` is one): its
    system prompt, its (redacted) configuration and the config file it came from (what
    resuming reloads when the configuration had secrets masked).
    """

    config_summary: dict[str, Any] | None
    config_file: Path | None

    def system_prompt(self) -> str:
        """The exact system prompt."""
        ...


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def run_line(task: str, agent: RecordedAgent) -> dict[str, Any]:
    """The ``run`` line (the header) of a run's records: the format version, the task, the
    start time, the agent's system prompt, its (redacted) configuration and config file.
    """
    return {
        "type": "run",
        "version": TRANSCRIPT_VERSION,
        "task": task,
        "started": _now(),
        "system_prompt": agent.system_prompt(),
        "config": agent.config_summary,
        "config_file": str(agent.config_file) if agent.config_file is not None else None,
    }


def resume_line(after_step: int) -> dict[str, Any]:
    """The ``resume`` line: a later process continued the run after step ``after_step``."""
    return {"type": "resume", "at": _now(), "after_step": after_step}


def step_line(record: StepRecord) -> dict[str, Any]:
    """The ``step`` line of one completed step."""
    return {"type": "step", **record.to_dict()}


def end_line(result: RunResult) -> dict[str, Any]:
    """The ``end`` line of a run: stop reason, message, answer and statistics."""
    data = result.to_dict()
    return {
        "type": "end",
        "stop_reason": data["stop_reason"],
        "message": data["message"],
        "answer": data["answer"],
        "stats": data["stats"],
    }


@dataclass
class Transcript:
    """A transcript read back from disk.

    Attributes:
        task: The run's task.
        steps: The completed steps, in order.
        end: The ``end`` line, or ``None`` when the run did not finish.
        header: The ``run`` line.
    """

    task: str
    steps: list[StepRecord] = field(default_factory=list)
    end: dict[str, Any] | None = None
    header: dict[str, Any] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        """Whether the run reached its end."""
        return self.end is not None


def _problem(path: Path, message: str, line: int | None = None) -> TranscriptError:
    return TranscriptError(
        f"transcript is damaged: {message}", location=Location(file=str(path), line=line)
    )


def _lines(path: Path) -> list[bytes]:
    try:
        data = read_file(path, TRANSCRIPT_FILE)
    except OSError as error:
        reason = (
            "it is a directory"
            if isinstance(error, IsADirectoryError)
            else (error.strerror or str(error)).lower()
        )
        raise TranscriptError(
            f"cannot read the transcript {path}: {reason}", location=Location(file=str(path))
        ) from None
    except InputError as error:  # larger than the limit, or the limit's variable is wrong
        raise TranscriptError(
            f"cannot read the transcript {path}: {error.problem}",
            location=Location(file=str(path)),
            hint=error.hint,
        ) from None
    return data.split(b"\n")


def _record(path: Path, raw: bytes, number: int) -> dict[str, Any]:
    """One line as a JSON object (``TranscriptError`` naming the line otherwise)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _problem(
            path, f"the line is not UTF-8 text (byte 0x{raw[error.start]:02x})", number
        ) from None
    try:
        record = read_json(text, source="the line", max_depth=OUTPUT_MAX_DEPTH)
    except InputError as error:
        raise _problem(path, error.message, number) from None
    if not isinstance(record, dict):
        raise _problem(path, f"the line is not a JSON object but {type(record).__name__}", number)
    return record


def load_transcript(path: Path | str) -> Transcript:
    """Read a transcript written by :class:`~gent_core._transcript.writer.TranscriptWriter`.

    A partial last line (the process was killed while writing it) is ignored. The file may be
    at most 256 MiB (:data:`gent_core._bounded.TRANSCRIPT_FILE`; the environment variable
    ``GENT_MAX_TRANSCRIPT_SIZE`` changes it), and each line is read within gent's bounds
    (:func:`gent_core._bounded.read_json`).

    Raises:
        TranscriptError: When the file cannot be read or is too large, is empty, does not
            start with a ``run`` line, or a line other than a partial last one is damaged
            (not UTF-8, not a JSON object, beyond gent's bounds, an unknown type, a missing or
            invalid field), naming the file and line.
    """
    path = Path(path)
    lines = _lines(path)
    transcript: Transcript | None = None
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            record = _record(path, raw, number)
        except TranscriptError:
            if number == len(lines):
                break  # the last line, cut off while it was being written
            raise
        try:
            transcript = _add(transcript, record)
        except RecordError as error:
            raise _problem(path, str(error), number) from None
    if transcript is None:
        raise TranscriptError("transcript is empty", location=Location(file=str(path)))
    return transcript


def transcript_from_records(records: Sequence[dict[str, Any]], *, source: str) -> Transcript:
    """Read a run from its records (the lines of a transcript as JSON objects, such as a
    logged run's in the history database), with the checks of :func:`load_transcript`.

    Args:
        records: The records, in order.
        source: What holds them, for messages (``"the logged run 01J..."``).

    Raises:
        TranscriptError: When there are none, or one is damaged (naming ``source`` and the
            record's number).
    """
    transcript: Transcript | None = None
    for number, record in enumerate(records, start=1):
        try:
            transcript = _add(transcript, record)
        except RecordError as error:
            raise TranscriptError(f"{source} is damaged: record {number}: {error}") from None
    if transcript is None:
        raise TranscriptError(f"{source} holds no records")
    return transcript


_KINDS = ("run", "resume", "step", "end")


def _add(transcript: Transcript | None, record: dict[str, Any]) -> Transcript:
    """Add one line to ``transcript`` (``RecordError`` for a bad line)."""
    fields = FieldReader(record)
    if "type" not in record:
        raise RecordError("the line has no 'type' (expected one of run, resume, step, end)")
    kind = record["type"]
    if kind not in _KINDS:
        raise RecordError(f"unknown line type {kind!r} (expected one of run, resume, step, end)")
    if kind == "run":
        if transcript is not None:
            raise RecordError(
                "a second 'run' line: the file holds more than one run (a transcript holds one run)"
            )
        version = fields.integer("version", TRANSCRIPT_VERSION)
        if version > TRANSCRIPT_VERSION:
            raise RecordError(
                f"the transcript has format version {version}; this gent reads up to "
                f"{TRANSCRIPT_VERSION} (upgrade gent)"
            )
        return Transcript(task=fields.text("task"), header=record)
    if transcript is None:
        raise RecordError("the transcript does not start with a 'run' line")
    if transcript.end is not None:
        raise RecordError(f"a {kind!r} line after the run's 'end' line")
    if kind == "step":
        step = StepRecord.from_dict({key: value for key, value in record.items() if key != "type"})
        expected = len(transcript.steps) + 1
        if step.index != expected:
            raise RecordError(
                f"step {step.index} where step {expected} was expected: the steps are out of "
                "order (were two runs writing this file at once?)"
            )
        transcript.steps.append(step)
    elif kind == "resume":
        after = fields.integer("after_step", len(transcript.steps))
        if after != len(transcript.steps):
            raise RecordError(
                f"a 'resume' line after step {after}, but the file holds "
                f"{len(transcript.steps)} step(s) before it"
            )
    elif kind == "end":
        fields.text("stop_reason")
        transcript.end = record
    return transcript


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
