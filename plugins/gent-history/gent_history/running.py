"""Which logged runs are running: while a process logs a run, it holds a lock on a file of
that run's own, as a transcript's writer holds a lock on the transcript.

A run's lock file is ``<database>.running/<RUN ID>`` (``logs.db.running/01J...`` beside the
database). The recorder takes the lock of each run it logs just before the run's start is
written, holds the lock of the run it resumes, and lets go when the run's end is written; a
process that ends any other way (a crash, SIGKILL) lets go with it, since the operating
system drops the locks of a process that is gone. So ``gent run --resume ID`` refuses a run
that another process is still running, and resumes a run that a killed process left
unfinished.

The lock is the transcript's own (``fcntl.flock``, or a byte-range lock on Windows:
``gent_core.transcript.lock_file``), so a logged run and a transcript file are guarded by
one mechanism. Where no lock can be made (the directory cannot be written, a file system
without locks), the run is logged unguarded, as a transcript is.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import IO

from gent_core.transcript import TranscriptError, lock_file
from gent_core.workspace import BINARY, CLOEXEC, NOFOLLOW
from gent_history.errors import HistoryError
from gent_history.store import RUN_ID_ALPHABET

__all__ = ["RunLock", "lock_run", "lock_path"]

_ID_CHARACTERS = frozenset(RUN_ID_ALPHABET)
_ATTEMPTS = 3
"""How often a lock is taken again when its file was removed meanwhile (by a run that ended
at that moment)."""


def lock_path(database: Path, run_id: str) -> Path:
    """The lock file of the run ``run_id`` logged in ``database``."""
    return database.with_name(database.name + ".running") / run_id


class RunLock:
    """The lock of one logged run, held until :meth:`release` (or the process ends)."""

    def __init__(self, file: IO[bytes], path: Path) -> None:
        self._file: IO[bytes] | None = file
        self.path = path

    def release(self) -> None:
        """Let go of the lock and remove its file (a second call does nothing)."""
        file, self._file = self._file, None
        if file is None:
            return
        with contextlib.suppress(OSError):  # Windows keeps an open file; an empty file stays
            self.path.unlink()
        file.close()


def _open(path: Path) -> IO[bytes]:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | NOFOLLOW | CLOEXEC | BINARY, 0o600)
    return os.fdopen(fd, "r+b")


def _same_file(file: IO[bytes], path: Path) -> bool:
    """Whether ``path`` still names the open ``file`` (a run that ended removes its file)."""
    try:
        named = path.stat()
    except OSError:
        return False
    held = os.fstat(file.fileno())
    return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)


def lock_run(database: Path, run_id: str) -> RunLock | None:
    """Take the lock of the run ``run_id`` logged in ``database``.

    Returns:
        The lock, or ``None`` when none can be made (the run goes unguarded).

    Raises:
        HistoryError: When another process holds it: the run is running there.
    """
    if not run_id or len(run_id) > 26 or not set(run_id) <= _ID_CHARACTERS:
        return None  # not an id gent made (a damaged row): no file is named after it
    path = lock_path(database, run_id)
    for _ in range(_ATTEMPTS):
        try:
            file = _open(path)
        except OSError:
            return None
        try:
            lock_file(file, path)
        except TranscriptError:
            file.close()
            raise HistoryError(
                f"the logged run {run_id} is still running in another process; "
                "two processes cannot continue one run",
                hint=f"Wait until it ends (or stop it), then: gent run --resume {run_id}",
            ) from None
        except BaseException:
            file.close()
            raise
        if _same_file(file, path):
            return RunLock(file, path)
        file.close()
    return None
