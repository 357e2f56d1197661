"""The run transcript: a JSONL file appended step by step, and resuming from it.

Each line is one JSON object with a ``type``:

``run``     the header: format version, task, start time, system prompt, config (redacted)
``resume``  a later process continued the run from here
``step``    one completed step (:meth:`StepRecord.to_dict`)
``end``     the run's end: stop reason, answer, statistics

Every line is flushed as soon as it is written, so a run killed mid-way leaves a readable
record of every completed step. Every string value except the user's own text (the task, the
answer) goes through a redaction function first (:func:`~gent_core.agent.records.redact_record`),
so secrets never reach the file; keys and structure are never changed, so the file reads back
as it was written; and every line is strict JSON (:func:`gent_core.serialize.write_json`).

Damage is handled, never raised as anything but a :class:`~gent_core.errors.GentError`:

* the writer opens its file when it is created, so a path that cannot be written (a directory,
  a path under a file, no permission) fails *before* the run starts;
* a partial last line (killed while writing) is ignored when reading, and cut off when a
  resumed run appends to the file, so the new lines never join it (the ``resume`` line says how
  many characters were discarded);
* a corrupt line (not UTF-8, not JSON, a missing or invalid field) is an error naming the file,
  the line and the field.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from gent_core.agent.fields import FieldReader, RecordError
from gent_core.agent.records import RunResult, StepRecord, redact_record
from gent_core.bounded import TRANSCRIPT_FILE, read_file, read_json
from gent_core.errors import GentError, InputError, Location
from gent_core.serialize import write_json

__all__ = [
    "TRANSCRIPT_VERSION",
    "Transcript",
    "TranscriptError",
    "TranscriptWriter",
    "load_transcript",
]

TRANSCRIPT_VERSION = 1


def _identity(text: str) -> str:
    return text


class TranscriptError(GentError):
    """A transcript that cannot be written or read; the location names the file (and line)."""


def _open_for_append(path: Path) -> tuple[IO[bytes], int, bool]:
    """Open ``path`` for appending, cutting off a partial last line.

    Returns:
        The file, how many bytes of a partial last line were discarded, and whether the file
        already held lines.

    Raises:
        TranscriptError: When the file cannot be created or written.
    """
    try:
        if path.is_dir():
            raise IsADirectoryError(21, "Is a directory")
        path.parent.mkdir(parents=True, exist_ok=True)
        file = path.open("a+b")
    except OSError as error:
        reason = error.strerror or str(error)
        if isinstance(error, FileExistsError | NotADirectoryError):
            reason = "a parent of it is a file, not a directory"
        raise TranscriptError(
            f"cannot write the transcript {path}: {reason.lower()}",
            location=Location(file=str(path)),
            hint="Give the path of a .jsonl file in a directory you can write to.",
        ) from None
    try:
        size = file.seek(0, os.SEEK_END)
        discarded = 0
        if size:
            file.seek(size - 1)
            if file.read(1) != b"\n":
                end = _last_line_end(file, size)
                file.truncate(end)
                discarded = size - end
        return file, discarded, file.seek(0, os.SEEK_END) > 0
    except OSError as error:
        file.close()
        raise TranscriptError(
            f"cannot write the transcript {path}: {error.strerror or error}",
            location=Location(file=str(path)),
        ) from None


def _last_line_end(file: IO[bytes], size: int, block: int = 65_536) -> int:
    """The offset just past the last newline before ``size`` (0 when there is none)."""
    position = size
    while position > 0:
        start = max(0, position - block)
        file.seek(start)
        chunk = file.read(position - start)
        found = chunk.rfind(b"\n")
        if found >= 0:
            return start + found + 1
        position = start
    return 0


class TranscriptWriter:
    """Appends a run's transcript to a JSONL file, one flushed line per event.

    The file is opened (and created) at once, so a bad path fails before the run starts; when
    it already ends with a partial line (a run killed while writing), that line is cut off.

    Args:
        path: The transcript file; created if missing, appended to otherwise.
        redact: Applied to every string value before writing (e.g. ``LoadedConfig.redact``),
            except the task and the answer (:func:`~gent_core.agent.records.redact_record`).

    Raises:
        TranscriptError: When the file cannot be created or written (naming the path).
    """

    def __init__(self, path: Path | str, *, redact: Callable[[str], str] | None = None) -> None:
        self.path = Path(path)
        self._redact = redact or _identity
        self._file: IO[bytes] | None
        self._file, self.discarded, self._appending = _open_for_append(self.path)

    def _write(self, record: dict[str, Any]) -> None:
        if self._file is None:
            raise TranscriptError(
                f"the transcript {self.path} is closed", location=Location(file=str(self.path))
            )
        line = write_json(redact_record(record, self._redact))
        try:
            self._file.write(line.encode("utf-8") + b"\n")
            self._file.flush()
        except OSError as error:
            raise TranscriptError(
                f"cannot write the transcript {self.path}: {error.strerror or error}",
                location=Location(file=str(self.path)),
            ) from None

    def start(
        self, task: str, system_prompt: str, *, config: dict[str, Any] | None, resumed_steps: int
    ) -> None:
        """Write the header, or a ``resume`` line when continuing an existing transcript."""
        now = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        if resumed_steps or self._appending:
            line: dict[str, Any] = {"type": "resume", "at": now, "after_step": resumed_steps}
            if self.discarded:
                line["discarded_partial_line"] = self.discarded
            self._write(line)
            return
        self._write(
            {
                "type": "run",
                "version": TRANSCRIPT_VERSION,
                "task": task,
                "started": now,
                "system_prompt": system_prompt,
                "config": config,
            }
        )

    def step(self, record: StepRecord) -> None:
        """Write one completed step."""
        self._write({"type": "step", **record.to_dict()})

    def end(self, result: RunResult) -> None:
        """Write the run's end."""
        data = result.to_dict()
        self._write(
            {
                "type": "end",
                "stop_reason": data["stop_reason"],
                "message": data["message"],
                "answer": data["answer"],
                "stats": data["stats"],
            }
        )

    def close(self) -> None:
        """Close the file."""
        if self._file is not None:
            self._file.close()
            self._file = None


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
        reason = "it is a directory" if path.is_dir() else (error.strerror or str(error)).lower()
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
        record = read_json(text, source="the line")
    except InputError as error:
        raise _problem(path, error.message, number) from None
    if not isinstance(record, dict):
        raise _problem(path, f"the line is not a JSON object but {type(record).__name__}", number)
    return record


def load_transcript(path: Path | str) -> Transcript:
    """Read a transcript written by :class:`TranscriptWriter`.

    A partial last line (the process was killed while writing it) is ignored. The file may be
    at most 256 MiB (:data:`gent_core.bounded.TRANSCRIPT_FILE`; the environment variable
    ``GENT_MAX_TRANSCRIPT_SIZE`` changes it), and each line is read within gent's bounds
    (:func:`gent_core.bounded.read_json`).

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
        version = fields.integer("version", TRANSCRIPT_VERSION)
        if version > TRANSCRIPT_VERSION:
            raise RecordError(
                f"the transcript has format version {version}; this gent reads up to "
                f"{TRANSCRIPT_VERSION} (upgrade gent)"
            )
        return Transcript(task=fields.text("task"), header=record)
    if transcript is None:
        raise RecordError("the transcript does not start with a 'run' line")
    if kind == "step":
        transcript.steps.append(
            StepRecord.from_dict({key: value for key, value in record.items() if key != "type"})
        )
    elif kind == "end":
        fields.text("stop_reason")
        transcript.end = record
    return transcript
