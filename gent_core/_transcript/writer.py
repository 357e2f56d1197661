"""Writing a run's transcript: a run observer, registered among the run's hooks as the
history's recorder is, appending one flushed line per run hook (:mod:`gent_core._transcript`
describes the file). The agent loop writes nothing itself.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import sys
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from gent_core._serialize import write_json
from gent_core._transcript.lines import (
    RecordedAgent,
    Transcript,
    TranscriptError,
    end_line,
    interrupted_run,
    resume_line,
    run_line,
    step_line,
)
from gent_core.errors import HookError, Location, describe_error
from gent_core.hookspecs import hookimpl
from gent_core.records import RunResult, StepRecord, redact_record

if TYPE_CHECKING:
    from gent_core.context import ExecutionContext
    from gent_core.model import Model

__all__ = ["TranscriptWriter", "lock_file", "open_locked", "open_run_transcript"]

logger = logging.getLogger("gent.transcript")

_WINDOWS_LOCK_OFFSET = 0x7FFF_FFF0
"""Where the Windows lock byte lies: far past any transcript's end (SQLite's trick)."""


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


def lock_file(file: IO[bytes], path: Path) -> None:
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


def open_locked(path: Path, *, resume: bool) -> IO[bytes]:
    """Open and lock ``path`` for a new run (refusing a file that holds lines already) or
    for a resumed one.

    Raises:
        TranscriptError: When the file cannot be opened, holds a run already (new run), does
            not exist (resume), or is locked by another writer.
    """
    file = _open(path, resume=resume)
    try:
        lock_file(file, path)
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


class TranscriptWriter:
    """Writes one run's transcript: ``gent_run_started`` the header (or a ``resume`` line),
    ``gent_step_finished`` each completed step, ``gent_run_finished`` the end, except for a
    run interrupted before it (:attr:`RunResult.interrupted
    <gent_core.records.RunResult.interrupted>`), which stays resumable. Lines are redacted
    with the run's ``context.redact``. The file is opened and locked when the writer is made
    (:func:`open_locked`) and stays locked until :meth:`close`; the first problem writing it
    is one warning, and the run goes on without it.

    Args:
        path: The transcript file.
        agent: The agent whose run it records (its header: system prompt, configuration).
        resume: Continue the run the file records (append a ``resume`` line, after cutting
            off a partial last line) instead of starting one.

    Attributes:
        resumed_steps: The steps the resumed run already had (what its ``resume`` line says).

    Raises:
        TranscriptError: Naming the path, when the file cannot be created or written, holds
            lines already (a new run), does not exist (resume), or is locked by another
            writer.
    """

    def __init__(self, path: Path | str, agent: RecordedAgent, *, resume: bool = False) -> None:
        self.path = Path(path)
        self._agent = agent
        self._resume = resume
        self.resumed_steps = 0
        self._file: IO[bytes] | None = open_locked(self.path, resume=resume)

    def _write(self, line: dict[str, Any], context: ExecutionContext) -> None:
        """Write one line; the first problem is one warning, and nothing is written after it."""
        if self._file is None:
            return
        try:
            if self._resume and line["type"] == "resume":
                discarded = _cut_partial_line(self._file)
                if discarded:
                    line["discarded_partial_line"] = discarded
            text = write_json(redact_record(line, context.redact))
            self._file.write(text.encode("utf-8") + b"\n")
            self._file.flush()
        except Exception as error:  # noqa: BLE001 - a transcript never stops a run
            problem = (
                _cannot_write(self.path, error).message
                if isinstance(error, OSError)
                else f"cannot write the transcript {self.path}: {describe_error(error)}"
            )
            logger.warning("%s; the rest of the run is not written to it", problem)
            self.close()

    @hookimpl(tryfirst=True)
    def gent_run_started(self, task: str, model: Model, context: ExecutionContext) -> None:
        """Write the header, or a ``resume`` line when continuing the file's run."""
        del model
        line = resume_line(self.resumed_steps) if self._resume else run_line(task, self._agent)
        self._write(line, context)

    @hookimpl(tryfirst=True)
    def gent_step_finished(self, record: StepRecord, context: ExecutionContext) -> None:
        """Write one completed step (before any other plugin's hook can fail)."""
        self._write(step_line(record), context)

    @hookimpl(wrapper=True)
    def gent_run_finished(
        self, result: RunResult, context: ExecutionContext
    ) -> Generator[None, object, object]:
        """Write the run's end once every other plugin's hook has run: the result as the run
        returns it (a ``plugin_error`` when one of them failed); nothing for a run interrupted
        before its end.
        """
        try:
            outcome = yield
        except Exception as error:
            if not result.interrupted:
                caller = context.plugin_manager.hook.gent_run_finished  # type: ignore[union-attr]
                failed = HookError.raised_by("gent_run_finished", caller, error)
                message = str(failed)
                ended = replace(result, answer=None, stop_reason="plugin_error", message=message)
                self._write(end_line(ended), context)
            raise
        if not result.interrupted:
            self._write(end_line(result), context)
        return outcome

    def close(self) -> None:
        """Close the file (letting go of its lock)."""
        file, self._file = self._file, None
        if file is not None:
            with contextlib.suppress(OSError):  # what it could not write is warned about
                file.close()


def open_run_transcript(
    transcript: Path | str | Transcript | None, agent: RecordedAgent, *, resume: bool
) -> tuple[TranscriptWriter | None, tuple[str, list[StepRecord]] | None]:
    """The writer of a run's transcript file (``None`` without a file: no transcript, or one
    already read from the history database) and, when ``resume``, the interrupted run's task
    and steps.

    The writer opens and locks the file first: a resume reads it under the lock, so no other
    run can be writing it meanwhile. It is closed again when reading fails.

    Raises:
        GentError: When the file cannot be written, is locked by another writer, is
            unreadable, or its run already finished.
    """
    path = None if isinstance(transcript, Transcript) else transcript
    writer = TranscriptWriter(path, agent, resume=resume) if path else None
    if not resume:
        return writer, None
    assert transcript is not None  # a resume always names its transcript
    try:
        task, steps = interrupted_run(transcript)
    except BaseException:
        if writer is not None:
            writer.close()
        raise
    if writer is not None:
        writer.resumed_steps = len(steps)
    return writer, (task, steps)
