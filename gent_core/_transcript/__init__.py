"""The run transcript: a JSONL file appended step by step, and resuming from it.

Each line is one JSON object with a ``type``:

``run``     the header: format version, task, start time, system prompt, config (redacted)
``resume``  a later process continued the run from here
``step``    one completed step (:meth:`StepRecord.to_dict`)
``end``     the run's end: stop reason, answer, statistics

Every line is flushed as soon as it is written, so a run killed mid-way leaves a readable
record of every completed step. Every string value except the user's own text (the task, the
answer) goes through a redaction function first (:func:`~gent_core.records.redact_record`),
so secrets never reach the file; keys and structure are never changed, so the file reads back
as it was written; and every line is strict JSON (:func:`gent_core._serialize.write_json`).

One file holds one run. A new run refuses a file that already holds lines (give another
path, delete it, or resume its run); only a resumed run appends. While a run writes its
transcript it holds an exclusive lock on the file, so a second writer (another run, or a
resume of the same run) is refused with an error naming the file instead of interleaving its
steps: ``fcntl.flock`` on POSIX; on Windows a byte-range lock (``msvcrt.locking``) on one byte
far past the end of the file, as SQLite does, so readers and the writer's own appends are not
blocked. A file system that cannot lock at all (some network mounts) is written unlocked,
with a warning. The reader refuses what only interleaved or concatenated runs produce: a
second ``run`` line, steps out of order, a step after the run's end.

Damage is handled, never raised as anything but a :class:`~gent_core.errors.GentError`:

* the writer opens its file when it is created, so a path that cannot be written (a directory,
  a path under a file, no permission), a transcript that already holds a run, or one locked by
  another writer fails *before* the run starts;
* a partial last line (killed while writing) is ignored when reading, and cut off when a
  resumed run appends to the file, so the new lines never join it (the ``resume`` line says how
  many characters were discarded);
* a corrupt line (not UTF-8, not JSON, a missing or invalid field) is an error naming the file,
  the line and the field.
"""

from __future__ import annotations

import errno
import logging
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from gent_core._bounded import TRANSCRIPT_FILE, read_file, read_json
from gent_core._record_fields import FieldReader, RecordError
from gent_core._serialize import OUTPUT_MAX_DEPTH, write_json
from gent_core.errors import GentError, InputError, Location
from gent_core.records import RunResult, StepRecord, redact_record

__all__ = [
    "TRANSCRIPT_VERSION",
    "Transcript",
    "TranscriptError",
    "TranscriptWriter",
    "end_line",
    "load_transcript",
    "resume_line",
    "run_line",
    "step_line",
    "transcript_from_records",
]

TRANSCRIPT_VERSION = 1

logger = logging.getLogger("gent.transcript")

_WINDOWS_LOCK_OFFSET = 0x7FFF_FFF0
"""Where the Windows lock byte lies: far past any transcript's end (SQLite's trick)."""


def _identity(text: str) -> str:
    return text


class TranscriptError(GentError):
    """A transcript that cannot be written or read; the location names the file (and line)."""


def _cannot_write(path: Path, error: OSError) -> TranscriptError:
    reason = error.strerror or str(error)
    if isinstance(error, FileExistsError | NotADirectoryError):
        reason = "a parent of it is a file, not a directory"
    return TranscriptError(
        f"cannot write the transcript {path}: {reason.lower()}",
        location=Location(file=str(path)),
        hint="Give the path of a .jsonl file in a directory you can write to.",
    )


def _open(path: Path, *, resume: bool) -> IO[bytes]:
    """Open ``path`` for appending: created for a new run, required to exist for a resume.

    Raises:
        TranscriptError: When the file cannot be opened (or, to resume, does not exist).
    """
    try:
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, "Is a directory")
        if resume:
            return path.open("r+b")
        path.parent.mkdir(parents=True, exist_ok=True)
        return path.open("a+b")
    except FileNotFoundError as error:
        if not resume:
            raise _cannot_write(path, error) from None
        raise TranscriptError(
            f"cannot read the transcript {path}: {(error.strerror or str(error)).lower()}",
            location=Location(file=str(path)),
            hint="Give the transcript the interrupted run wrote (its --transcript path).",
        ) from None
    except OSError as error:
        raise _cannot_write(path, error) from None


def _lock(file: IO[bytes], path: Path) -> None:
    """Hold an exclusive lock on ``file`` until it is closed (see the module docstring).

    Raises:
        TranscriptError: When another writer holds the lock.
    """
    try:
        if sys.platform == "win32":
            import msvcrt

            position = file.tell()
            file.seek(_WINDOWS_LOCK_OFFSET)
            try:
                msvcrt.locking(file.fileno(), msvcrt.LK_NBLCK, 1)
            finally:
                file.seek(position)
        else:
            import fcntl

            fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        held = (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES, getattr(errno, "EDEADLOCK", -1))
        if error.errno not in held:
            logger.warning(
                "the transcript %s cannot be locked (%s); it is written without a lock",
                path,
                error.strerror or error,
            )
            return
        raise TranscriptError(
            f"the transcript {path} is being written by another run (the file is locked)",
            location=Location(file=str(path)),
            hint="Wait until that run ends, or give another transcript path.",
        ) from None


def _open_locked(path: Path, *, resume: bool) -> IO[bytes]:
    """Open and lock ``path`` for a new run (refusing a file that holds lines already) or
    for a resumed one.

    Raises:
        TranscriptError: When the file cannot be opened, holds a run already (new run), does
            not exist (resume), or is locked by another writer.
    """
    file = _open(path, resume=resume)
    try:
        _lock(file, path)
        if file.seek(0, os.SEEK_END) and not resume:
            raise TranscriptError(
                f"the transcript {path} already holds a run (a transcript records one run)",
                location=Location(file=str(path)),
                hint=f"Give another transcript path, delete {path}, or continue the run it "
                f"records (gent run --resume {path}, or Agent.resume).",
            )
        return file
    except OSError as error:
        file.close()
        raise _cannot_write(path, error) from None
    except BaseException:
        file.close()
        raise


def _cut_partial_line(file: IO[bytes]) -> int:
    """Cut off a partial last line (a run killed while writing); return how many bytes."""
    size = file.seek(0, os.SEEK_END)
    discarded = 0
    if size:
        file.seek(size - 1)
        if file.read(1) != b"\n":
            end = _last_line_end(file, size)
            file.truncate(end)
            discarded = size - end
    file.seek(0, os.SEEK_END)
    return discarded


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


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def run_line(
    task: str,
    system_prompt: str,
    *,
    config: dict[str, Any] | None,
    config_file: str | None = None,
) -> dict[str, Any]:
    """The ``run`` line (the header) of a run's records, before redaction.

    Args:
        task: The run's task.
        system_prompt: The exact system prompt.
        config: The (redacted) configuration.
        config_file: The absolute path of the config file the agent came from, if any.
    """
    return {
        "type": "run",
        "version": TRANSCRIPT_VERSION,
        "task": task,
        "started": _now(),
        "system_prompt": system_prompt,
        "config": config,
        "config_file": config_file,
    }


def resume_line(after_step: int) -> dict[str, Any]:
    """The ``resume`` line: a later process continued the run after step ``after_step``."""
    return {"type": "resume", "at": _now(), "after_step": after_step}


def step_line(record: StepRecord) -> dict[str, Any]:
    """The ``step`` line of one completed step, before redaction."""
    return {"type": "step", **record.to_dict()}


def end_line(result: RunResult) -> dict[str, Any]:
    """The ``end`` line of a run, before redaction."""
    data = result.to_dict()
    return {
        "type": "end",
        "stop_reason": data["stop_reason"],
        "message": data["message"],
        "answer": data["answer"],
        "stats": data["stats"],
    }


class TranscriptWriter:
    """Writes one run's transcript to a JSONL file, one flushed line per event.

    The file is opened (and created, for a new run) and locked at once, so a bad path, a file
    that already holds a run or one another run is writing fails before the run starts. To
    resume, the file must exist; a partial last line (a run killed while writing) is cut off
    when :meth:`start` writes the ``resume`` line. The lock is held until :meth:`close`.

    Args:
        path: The transcript file.
        redact: Applied to every string value before writing (e.g. ``LoadedConfig.redact``),
            except the task and the answer (:func:`~gent_core.records.redact_record`).
        resume: Continue the run the file records (append to it) instead of starting one.

    Raises:
        TranscriptError: Naming the path, when the file cannot be created or written, holds
            lines already (a new run), does not exist (resume), or is locked by another
            writer.
    """

    def __init__(
        self,
        path: Path | str,
        *,
        redact: Callable[[str], str] | None = None,
        resume: bool = False,
    ) -> None:
        self.path = Path(path)
        self._redact = redact or _identity
        self._resume = resume
        self._file: IO[bytes] | None
        self._file = _open_locked(self.path, resume=resume)

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
        self,
        task: str,
        system_prompt: str,
        *,
        config: dict[str, Any] | None,
        resumed_steps: int,
        config_file: str | None = None,
    ) -> None:
        """Write the header, or a ``resume`` line when continuing the transcript's run.

        Args:
            task: The run's task.
            system_prompt: The exact system prompt.
            config: The (redacted) configuration, so the run can be resumed without it.
            resumed_steps: How many steps the resumed run already had.
            config_file: The absolute path of the config file the agent came from, if any
                (what resuming reloads when ``config`` had secrets masked).
        """
        if self._resume:
            line = resume_line(resumed_steps)
            discarded = self._cut_partial_line()
            if discarded:
                line["discarded_partial_line"] = discarded
            self._write(line)
            return
        self._write(run_line(task, system_prompt, config=config, config_file=config_file))

    def _cut_partial_line(self) -> int:
        if self._file is None:
            return 0
        try:
            return _cut_partial_line(self._file)
        except OSError as error:
            raise _cannot_write(self.path, error) from None

    def step(self, record: StepRecord) -> None:
        """Write one completed step."""
        self._write(step_line(record))

    def end(self, result: RunResult) -> None:
        """Write the run's end."""
        self._write(end_line(result))

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
    """Read a transcript written by :class:`TranscriptWriter`.

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
