"""The process's connection to the history database, kept open from one logged run to the next.

Opening the database costs a schema check, and closing it a checkpoint: SQLite copies the
write-ahead log into the database and flushes both to disk, which takes longer than all of a
run's writes. So the recorders of one process share one connection (:func:`store`), opened by
the first write and closed when the process ends (or when the recorders turn to another
database, or after a write failed). Meanwhile SQLite checkpoints on its own once the log has
grown past 1,000 pages (``wal_autocheckpoint``), on the writer's thread.

Every function here runs on the writer's thread (:mod:`gent_history.writer`), the only one
that touches the connection, except :func:`close_at_exit`, which hands the closing to that
thread. A connection is used again only while ``path`` still names the file it opened: a
database moved away or replaced (``mv logs.db logs.db.bad``) is opened anew. A child made by
``fork`` never uses, nor closes, the connection it inherited (SQLite forbids both).
"""

from __future__ import annotations

import atexit
import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

from gent_history.writer import run_on_writer

if TYPE_CHECKING:
    from gent_history.store import HistoryStore

__all__ = ["close_at_exit", "discard", "store"]

_open: tuple[HistoryStore, tuple[int, int] | None] | None = None
_inherited: list[object] = []
"""Connections a ``fork`` child inherited: kept, never used nor closed."""


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_dev, status.st_ino


def store(path: Path, timeout: float) -> HistoryStore:
    """The open database at ``path`` (opened, or opened anew, when needed).

    Raises:
        HistoryError: When the database cannot be opened (see :class:`HistoryStore`).
    """
    global _open
    if _open is not None:
        current, identity = _open
        if current.path == path and _identity(path) == identity:
            return current
        discard()
    from gent_history.store import HistoryStore

    opened = HistoryStore(path, timeout=timeout)
    _open = (opened, _identity(path))
    return opened


def discard() -> None:
    """Close the open database, if any (the next :func:`store` opens it again)."""
    global _open
    if _open is not None:
        current, _open = _open[0], None
        with contextlib.suppress(Exception):
            current.close()


def close_at_exit() -> None:
    """Close the open database when the process ends (its checkpoint: see the module
    docstring), on the writer's thread, after the jobs queued before; without waiting for
    other processes.
    """
    if _open is None:
        return
    _open[0].hurry()
    run_on_writer(discard).wait()


def _forget_in_child() -> None:
    global _open
    if _open is not None:
        _inherited.append(_open[0])
        _open = None


atexit.register(close_at_exit)
if hasattr(os, "register_at_fork"):  # not on Windows, which has no fork
    os.register_at_fork(after_in_child=_forget_in_child)
