"""The history database: schema, migrations, writing runs and answering ``gent logs``.

A plain SQLite file (the standard :mod:`sqlite3` module) that any SQLite tool can open:

``runs``
    one row per run: id, conversation, start time, task, answer, stop reason, the
    configuration's name and its JSON (secrets already redacted by the caller), steps, tokens
    (``NULL`` when the back end reported none) and seconds;
``records``
    the run's records in order, each the JSON of one transcript line (``run``, ``resume``,
    ``step``, ``end``: the transcript's lines, :func:`gent_core.transcript.run_line`...), so a
    logged run can be shown step by step, resumed, or continued like a transcript file;
``tool_calls``
    every tool call of every step: tool, arguments, status, output, error;
``runs_fts``
    an FTS5 index over tasks and answers, kept in step by triggers.

The schema version is SQLite's ``user_version``; :data:`MIGRATIONS` brings any older file up
to date when it is opened. The journal is write-ahead (WAL): readers never wait for a writer,
and writers take turns (each write is one short ``BEGIN IMMEDIATE`` transaction, waiting up to
``timeout`` seconds for another process's, in short slices that :meth:`HistoryStore.hurry`
cuts short). Every problem — a file that is not a database, a lock held too long, a directory
that cannot be created — is a :class:`HistoryError` that says what is wrong and what to do.

Every value bound to a statement is made storable in one place, and every row read back is
checked against what gent writes (:mod:`gent_history.columns`): a row edited by hand or
damaged is a :class:`~gent_history.errors.DamagedRow` naming the run, never a traceback.
"""

from __future__ import annotations

import errno
import os
import secrets
import sqlite3
import stat
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from gent_core.bounds import write_json
from gent_core.errors import Location
from gent_history.columns import (
    SUMMARY_COLUMNS,
    RunSummary,
    bind,
    decode_text,
    read_record,
    run_summary,
)
from gent_history.errors import DamagedRow, HistoryError
from gent_history.schema import MIGRATIONS, statements

__all__ = [
    "MIGRATIONS",
    "RUN_ID_ALPHABET",
    "HistoryError",
    "HistoryStore",
    "RunSummary",
    "config_matches",
    "fts_query",
    "new_run_id",
]

T = TypeVar("T")

RUN_ID_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""The characters of a run id (Crockford's base 32)."""


_last_run_id = 0
_run_id_lock = threading.Lock()


def new_run_id() -> str:
    """A new run id: 26 characters, sortable by creation time (a ULID: 48 bits of
    milliseconds, then 80 random bits, in Crockford's base 32).

    Monotonic within the process: an id made in the same millisecond as the one before (or
    after the clock stepped back) is that one plus 1, so the runs of one process list, and
    ``--continue`` finds, in the order they started.
    """
    global _last_run_id
    with _run_id_lock:
        value = (time.time_ns() // 1_000_000) << 80 | secrets.randbits(80)
        if value <= _last_run_id:
            value = _last_run_id + 1
        _last_run_id = value
    return "".join(RUN_ID_ALPHABET[(value >> shift) & 31] for shift in range(125, -1, -5))


def _text_or_none(value: Any) -> str | None:
    return None if value is None else str(value)


def _answer_text(answer: Any) -> str | None:
    if answer is None or isinstance(answer, str):
        return answer
    return write_json(answer)


def config_matches(logged: str | None, wanted: str | None) -> bool:
    """Whether a logged configuration name is the one ``wanted`` names: the same name, the
    same file name (``agent.yaml``), or the same file name without its extension (``agent``).
    """
    if not isinstance(logged, str) or not isinstance(wanted, str) or not wanted:
        return False
    if logged == wanted:
        return True
    name = logged.replace("\\", "/").rsplit("/", 1)[-1]
    return wanted in (name, name.rsplit(".", 1)[0])


def fts_query(text: str) -> str:
    """An FTS5 query that finds rows containing every word of ``text`` (each word quoted,
    so any input is a valid query: no FTS5 syntax reaches SQLite; a NUL, which SQLite
    cannot take inside a query string, separates words).
    """
    words = text.replace("\x00", " ").split()
    return " ".join('"' + word.replace('"', '""') + '"' for word in words)


_BUSY_SLICE = 0.05
"""Seconds SQLite's own busy handler waits at a time: a statement that finds the database
held by another connection is tried again after each slice, so a request to stop waiting
(:meth:`HistoryStore.hurry`) is seen within one."""

_BUSY_CODES = frozenset({5, 6})
"""SQLITE_BUSY and SQLITE_LOCKED (primary codes: an extended code's low byte)."""


def _busy(error: sqlite3.Error) -> bool:
    """Whether ``error`` says another connection holds the database."""
    code = getattr(error, "sqlite_errorcode", None)  # Python 3.11+
    if code is not None:
        return code & 0xFF in _BUSY_CODES
    text = str(error).lower()
    return "locked" in text or "busy" in text


class _Statements:
    """The statements of one write transaction: every parameter goes through
    :func:`~gent_history.columns.bind`.
    """

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def execute(self, sql: str, parameters: Iterable[Any] = ()) -> sqlite3.Cursor:
        """Run one statement."""
        return self._db.execute(sql, bind(parameters))

    def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        """Run one statement for each row of parameters."""
        self._db.executemany(sql, (bind(row) for row in rows))


class HistoryStore:
    """The history database at ``path``, created (with its directory) when missing.

    Args:
        path: The database file.
        timeout: Seconds a statement waits for another process's write to finish (in slices
            of :data:`_BUSY_SLICE`; :meth:`hurry` stops the waiting).

    Raises:
        HistoryError: When the file cannot be created or opened, is not a SQLite database,
            or was written by a newer gent.
    """

    def __init__(self, path: Path | str, *, timeout: float = 5.0) -> None:
        self.path = Path(path)
        self.timeout = timeout
        self._hurry = threading.Event()
        self._hurry_job: threading.Event | None = None
        self._batch: _Statements | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._refuse_special_file()
            self._db = sqlite3.connect(
                self.path,
                timeout=min(timeout, _BUSY_SLICE),
                isolation_level=None,
                check_same_thread=False,
            )
        except (OSError, sqlite3.Error) as error:
            raise self._problem("cannot be opened", error) from None
        self._db.text_factory = decode_text
        try:
            self._db.create_function("config_matches", 2, config_matches, deterministic=True)
            for pragma in (
                "PRAGMA foreign_keys = ON",
                "PRAGMA journal_mode = WAL",
                # WAL's usual setting: a commit is not flushed to disk on its own (a
                # checkpoint is); the file stays consistent, and a power cut loses at most
                # the last records.
                "PRAGMA synchronous = NORMAL",
            ):
                self._patiently(partial(self._db.execute, pragma))
            self._migrate()
        except sqlite3.Error as error:
            self._db.close()
            raise self._problem("cannot be read", error) from None

    # -- errors and waiting ---------------------------------------------------------------

    def _problem(self, what: str, error: BaseException) -> HistoryError:
        detail = str(error) or type(error).__name__
        if isinstance(error, OSError) and error.strerror:
            detail = error.strerror
        lowered = detail.lower()
        if isinstance(error, sqlite3.Error) and _busy(error):
            hint = (
                "Another gent process holds it, and this run was interrupted, so gent did "
                "not wait for it."
                if self._hurried()
                else f"Another gent process held it for over {self.timeout:g} s; try again, "
                "or give --no-log to run without logging."
            )
        elif any(
            word in lowered for word in ("not a database", "malformed", "corrupt", "regular file")
        ):
            hint = (
                f"The file is damaged: move it away (mv {self.path} {self.path}.bad) and gent "
                "starts a new one; give --no-log to run without logging meanwhile."
            )
        else:
            hint = (
                "Set GENT_HOME to a directory you can write to, give --no-log, or run "
                "'gent logs off' to stop logging."
            )
        return HistoryError(
            f"the history database {what}: {detail}",
            location=Location(file=str(self.path)),
            hint=hint,
        )

    def _refuse_special_file(self) -> None:
        """Refuse a database path that names something other than a regular file (a FIFO
        would hang every read; a link to ``/dev/zero`` would never end).

        Raises:
            OSError: Wrapped by the caller, as a file that cannot be opened.
        """
        try:
            mode = os.stat(self.path).st_mode
        except FileNotFoundError:
            return  # a new database
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, "not a regular file")

    def hurry(self) -> None:
        """Stop waiting for other processes: from now on a statement that finds the database
        held by another connection fails after one :data:`_BUSY_SLICE` (a run interrupted by
        Ctrl-C ends without waiting for another process's write). Any thread may call it.
        """
        self._hurry.set()

    def _hurried(self) -> bool:
        return self._hurry.is_set() or (self._hurry_job is not None and self._hurry_job.is_set())

    @contextmanager
    def waiting(self, timeout: float, hurry: threading.Event) -> Iterator[None]:
        """Within the block, statements wait up to ``timeout`` seconds for other processes,
        and ``hurry`` set (from any thread) stops the waiting as :meth:`hurry` does: the
        patience of one caller of a store that several share, one after another.
        """
        saved = self.timeout, self._hurry_job
        self.timeout, self._hurry_job = timeout, hurry
        try:
            yield
        finally:
            self.timeout, self._hurry_job = saved

    def _patiently(self, action: Callable[[], T]) -> T:
        """``action()``, tried again while another connection holds the database: for up to
        :attr:`timeout` seconds in all, or once only after :meth:`hurry`.
        """
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                return action()
            except sqlite3.OperationalError as error:
                if not _busy(error) or self._hurried() or time.monotonic() >= deadline:
                    raise

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One write transaction for every write of the block (:meth:`start_run`,
        :meth:`add_record`): all of them are in the database, or (after an error) none.
        """
        if self._batch is not None:
            yield
            return
        with self._writing() as statements:
            self._batch = statements
            try:
                yield
            finally:
                self._batch = None

    @contextmanager
    def _writing(self) -> Iterator[_Statements]:
        """One write transaction (``BEGIN IMMEDIATE``: writers take turns), or the
        :meth:`batch` in progress.
        """
        if self._batch is not None:
            yield self._batch
            return
        try:
            self._patiently(lambda: self._db.execute("BEGIN IMMEDIATE"))
        except sqlite3.Error as error:
            raise self._problem("cannot be written", error) from None
        try:
            yield _Statements(self._db)
        except sqlite3.Error as error:
            self._db.execute("ROLLBACK")
            raise self._problem("cannot be written", error) from None
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        else:
            try:
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                raise self._problem("cannot be written", error) from None

    def _read(self, sql: str, parameters: Iterable[Any] = ()) -> list[Any]:
        bound = bind(parameters)
        try:
            return self._patiently(lambda: self._db.execute(sql, bound).fetchall())
        except sqlite3.Error as error:
            raise self._problem("cannot be read", error) from None

    # -- schema ---------------------------------------------------------------------------

    def _migrate(self) -> None:
        version = self._read("PRAGMA user_version")[0][0]
        if version > len(MIGRATIONS):
            raise HistoryError(
                f"the history database has schema version {version}; this gent reads up to "
                f"{len(MIGRATIONS)}",
                location=Location(file=str(self.path)),
                hint="Upgrade gent, or set GENT_HOME to use another database.",
            )
        if version == len(MIGRATIONS):
            return
        with self._writing() as db:
            current = db.execute("PRAGMA user_version").fetchone()[0]  # another process?
            for number in range(current, len(MIGRATIONS)):
                for statement in statements(MIGRATIONS[number]):
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")

    @property
    def schema_version(self) -> int:
        """The schema version of the open database."""
        return int(self._read("PRAGMA user_version")[0][0])

    def close(self) -> None:
        """Close the connection."""
        self._db.close()

    def __enter__(self) -> HistoryStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- writing --------------------------------------------------------------------------

    def start_run(
        self,
        *,
        task: str,
        config_name: str,
        config: Any = None,
        system_prompt: str | None = None,
        conversation_id: str | None = None,
        resumed_from: str | None = None,
        run_id: str | None = None,
    ) -> str:
        """Add a run and return its id (``run_id``, or a :func:`new_run_id`). A run with no
        ``conversation_id`` starts its own conversation (the run's id).
        """
        run_id = run_id or new_run_id()
        started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        with self._writing() as db:
            db.execute(
                "INSERT INTO runs (id, conversation_id, started, task, config_name, config, "
                "system_prompt, resumed_from) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    run_id,
                    conversation_id or run_id,
                    started,
                    task,
                    config_name,
                    None if config is None else write_json(config),
                    system_prompt,
                    resumed_from,
                ),
            )
        return run_id

    def add_record(self, run_id: str, record: dict[str, Any]) -> None:
        """Append one transcript record (a JSON-ready dict with a ``type``) to a run.

        A ``step`` record also fills ``tool_calls`` and the run's step count; an ``end``
        record (its ``stats`` as :meth:`RunStats.to_dict <gent_core.records.RunStats.to_dict>`
        writes them) fills the answer, stop reason, tokens and seconds.
        """
        kind = str(record.get("type", ""))
        data = write_json(record)
        with self._writing() as db:
            (seq,) = db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM records WHERE run_id = ?", (run_id,)
            ).fetchone()
            db.execute(
                "INSERT INTO records (run_id, seq, type, data) VALUES (?, ?, ?, ?)",
                (run_id, seq, kind, data),
            )
            if kind == "step":
                self._add_step(db, run_id, record)
            elif kind == "end":
                self._end(db, run_id, record)

    @staticmethod
    def _add_step(db: _Statements, run_id: str, record: dict[str, Any]) -> None:
        step = int(record.get("index", 0))
        calls = record.get("calls") or []
        db.executemany(
            "INSERT OR REPLACE INTO tool_calls (run_id, step, position, tool, arguments, "
            "status, output, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    run_id,
                    step,
                    position,
                    str(call.get("tool", "")),
                    write_json(call.get("args", {})),
                    str(call.get("status", "")),
                    write_json(call.get("output")),
                    _text_or_none(call.get("error")),
                )
                for position, call in enumerate(calls)
                if isinstance(call, dict)
            ],
        )
        db.execute("UPDATE runs SET steps = MAX(steps, ?) WHERE id = ?", (step, run_id))

    @staticmethod
    def _end(db: _Statements, run_id: str, record: dict[str, Any]) -> None:
        stats = record.get("stats")
        if not isinstance(stats, dict):
            stats = {}
        seconds = stats.get("seconds")
        calls = stats.get("model_calls")
        # Token totals are known only when some model call reported them (RunStats).
        reported = isinstance(calls, list) and any(
            isinstance(call, dict)
            and (call.get("input_tokens") is not None or call.get("output_tokens") is not None)
            for call in calls
        )
        db.execute(
            "UPDATE runs SET answer = ?, stop_reason = ?, message = ?, input_tokens = ?, "
            "output_tokens = ?, seconds = ? WHERE id = ?",
            (
                _answer_text(record.get("answer")),
                record.get("stop_reason"),
                _text_or_none(record.get("message")),
                stats.get("input_tokens") if reported else None,
                stats.get("output_tokens") if reported else None,
                seconds.get("total") if isinstance(seconds, dict) else None,
                run_id,
            ),
        )

    # -- reading --------------------------------------------------------------------------

    def list_runs(
        self,
        *,
        limit: int | None = 3,
        query: str | None = None,
        config: str | None = None,
        failed: bool = False,
        conversation_id: str | None = None,
        on_damaged: Callable[[HistoryError], None] | None = None,
    ) -> list[RunSummary]:
        """The newest runs first, filtered.

        Args:
            limit: How many at most (``None``: all).
            query: Words that the task or the answer must all contain (full-text search;
                any text is accepted, FTS5 syntax is not interpreted).
            config: Only runs of this configuration: its name as logged, its file name, or
                its file name without the extension.
            failed: Only runs that did not answer (stopped, or never finished).
            conversation_id: Only the runs of this conversation.
            on_damaged: Called with the error of each damaged row, which is then left out;
                without it a damaged row raises.

        Raises:
            HistoryError: When the database cannot be read, or (without ``on_damaged``) a
                row is damaged (:class:`~gent_history.errors.DamagedRow`).
        """
        where: list[str] = []
        parameters: list[Any] = []
        if query is not None and fts_query(query):
            where.append("runs.rowid IN (SELECT rowid FROM runs_fts WHERE runs_fts MATCH ?)")
            parameters.append(fts_query(query))
        if config is not None:
            where.append("config_matches(config_name, ?)")
            parameters.append(config)
        if failed:
            where.append("(stop_reason IS NULL OR stop_reason != 'answer')")
        if conversation_id is not None:
            where.append("conversation_id = ?")
            parameters.append(conversation_id)
        sql = f"SELECT {SUMMARY_COLUMNS} FROM runs"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            parameters.append(limit)
        runs = []
        for row in self._read(sql, parameters):
            try:
                runs.append(run_summary(row))
            except DamagedRow as error:
                if on_damaged is None:
                    raise
                on_damaged(error)
        return runs

    def get_run(self, run_id: str) -> RunSummary:
        """The run with this id, or the one run whose id starts with it (case-insensitive).

        Raises:
            HistoryError: When no run, or several, match, or the run's row is damaged.
        """
        wanted = run_id.strip().upper()
        if not wanted:
            raise HistoryError("give a run id (gent logs lists them)")
        rows = self._read(
            f"SELECT {SUMMARY_COLUMNS} FROM runs WHERE id >= ? AND id < ? ORDER BY id LIMIT 2",
            (wanted, wanted + "\U0010ffff"),
        )
        if not rows:
            raise HistoryError(
                f"no logged run has the id {run_id!r}",
                hint="'gent logs' lists the newest runs with their ids.",
            )
        if len(rows) > 1 and rows[0][0] != wanted:
            raise HistoryError(
                f"several logged runs have ids starting with {run_id!r}; give more of the id"
            )
        return run_summary(rows[0])

    def last_run(self) -> RunSummary | None:
        """The newest run, or ``None`` when nothing is logged.

        Raises:
            HistoryError: When the database cannot be read or the newest run is damaged.
        """
        runs = self.list_runs(limit=1)
        return runs[0] if runs else None

    def records(self, run_id: str) -> list[dict[str, Any]]:
        """The run's transcript records, in order, each read with a transcript line's bounds.

        Raises:
            HistoryError: When the database cannot be read, or a record is damaged (not
                text, not a JSON object, nested past the bound), naming the run and record.
        """
        rows = self._read("SELECT seq, data FROM records WHERE run_id = ? ORDER BY seq", (run_id,))
        return [read_record(run_id, seq, data) for seq, data in rows]

    def count(self) -> int:
        """How many runs are logged."""
        return int(self._read("SELECT COUNT(*) FROM runs")[0][0])
