"""The history database: schema, migrations, writing runs and answering ``gent logs``.

A plain SQLite file (the standard :mod:`sqlite3` module) that any SQLite tool can open:

``runs``
    one row per run: id, conversation, start time, task, answer, stop reason, the
    configuration's name and its JSON (secrets already redacted by the caller), steps, tokens
    (``NULL`` when the back end reported none) and seconds;
``records``
    the run's records in order, each the JSON of one transcript line (``run``, ``resume``,
    ``step``, ``end``: see :mod:`gent_core._agent.transcript`), so a logged run can be shown
    step by step, resumed, or continued like a transcript file;
``tool_calls``
    every tool call of every step: tool, arguments, status, output, error;
``runs_fts``
    an FTS5 index over tasks and answers, kept in step by triggers.

The schema version is SQLite's ``user_version``; :data:`MIGRATIONS` brings any older file up
to date when it is opened. The journal is write-ahead (WAL): readers never wait for a writer,
and writers take turns (each write is one short ``BEGIN IMMEDIATE`` transaction, waiting up to
``timeout`` seconds for another process's). Every problem — a file that is not a database, a
lock held too long, a directory that cannot be created — is a :class:`HistoryError` that says
what is wrong and what to do.
"""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from gent_core._serialize import write_json
from gent_core.errors import GentError, Location

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

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        conversation_id TEXT NOT NULL,
        started TEXT NOT NULL,
        task TEXT NOT NULL,
        answer TEXT,
        stop_reason TEXT,
        message TEXT,
        config_name TEXT NOT NULL,
        config TEXT,
        system_prompt TEXT,
        steps INTEGER NOT NULL DEFAULT 0,
        input_tokens INTEGER,
        output_tokens INTEGER,
        seconds REAL,
        resumed_from TEXT
    );
    CREATE INDEX runs_started ON runs (started);
    CREATE INDEX runs_conversation ON runs (conversation_id, started);
    CREATE TABLE records (
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
    );
    CREATE TABLE tool_calls (
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        position INTEGER NOT NULL,
        tool TEXT NOT NULL,
        arguments TEXT NOT NULL,
        status TEXT NOT NULL,
        output TEXT,
        error TEXT,
        PRIMARY KEY (run_id, step, position)
    );
    CREATE INDEX tool_calls_tool ON tool_calls (tool);
    CREATE VIRTUAL TABLE runs_fts USING fts5 (task, answer, content='runs', content_rowid='rowid');
    CREATE TRIGGER runs_fts_insert AFTER INSERT ON runs BEGIN
        INSERT INTO runs_fts (rowid, task, answer) VALUES (new.rowid, new.task, new.answer);
    END;
    CREATE TRIGGER runs_fts_delete AFTER DELETE ON runs BEGIN
        INSERT INTO runs_fts (runs_fts, rowid, task, answer)
            VALUES ('delete', old.rowid, old.task, old.answer);
    END;
    CREATE TRIGGER runs_fts_update AFTER UPDATE OF task, answer ON runs BEGIN
        INSERT INTO runs_fts (runs_fts, rowid, task, answer)
            VALUES ('delete', old.rowid, old.task, old.answer);
        INSERT INTO runs_fts (rowid, task, answer) VALUES (new.rowid, new.task, new.answer);
    END;
    """,
)
"""The schema, one script per version: the database at version ``n`` runs scripts ``n..``."""

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


class HistoryError(GentError):
    """The history database cannot be opened, read or written; the message says why and
    what to do.
    """


@dataclass
class RunSummary:
    """One logged run, as ``gent logs`` lists it.

    Attributes:
        id: The run's id (a ULID).
        conversation_id: The conversation the run belongs to (its first run's id).
        started: When it started (ISO 8601, UTC).
        task: The task as given.
        answer: The answer as text (JSON for a typed answer); ``None`` without one.
        stop_reason: Why it ended (``answer`` is success); ``None`` while running or when
            the process was stopped before the end.
        message: The run's closing message.
        config_name: The configuration's file, or ``built-in``.
        steps: Completed steps.
        input_tokens: Tokens sent, ``None`` when the back end reported none.
        output_tokens: Tokens generated, ``None`` when the back end reported none.
        seconds: Wall time of the run.
        resumed_from: The run this one resumed, if any.
    """

    id: str
    conversation_id: str
    started: str
    task: str
    answer: str | None
    stop_reason: str | None
    message: str | None
    config_name: str
    steps: int
    input_tokens: int | None
    output_tokens: int | None
    seconds: float | None
    resumed_from: str | None

    @property
    def ok(self) -> bool:
        """Whether the run answered."""
        return self.stop_reason == "answer"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (``tokens_reported`` says whether token counts exist)."""
        data = asdict(self)
        data["tokens_reported"] = self.input_tokens is not None or self.output_tokens is not None
        return data


_SUMMARY_COLUMNS = (
    "id, conversation_id, started, task, answer, stop_reason, message, config_name, steps, "
    "input_tokens, output_tokens, seconds, resumed_from"
)


def _summary(row: Sequence[Any]) -> RunSummary:
    return RunSummary(*row)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _storable(text: str | None) -> str | None:
    """``text`` as SQLite can store it: a lone surrogate (from undecodable bytes in a
    command's arguments), which UTF-8 cannot encode, becomes U+FFFD in the columns; the
    records keep the exact text (as JSON escapes).
    """
    return None if text is None else _LONE_SURROGATE.sub("\ufffd", text)


def _text_or_none(value: Any) -> str | None:
    return None if value is None else str(value)


def _answer_text(answer: Any) -> str | None:
    if answer is None or isinstance(answer, str):
        return _storable(answer)
    return write_json(answer)


def config_matches(logged: str | None, wanted: str | None) -> bool:
    """Whether a logged configuration name is the one ``wanted`` names: the same name, the
    same file name (``agent.yaml``), or the same file name without its extension (``agent``).
    """
    if logged is None or not wanted:
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


class HistoryStore:
    """The history database at ``path``, created (with its directory) when missing.

    Args:
        path: The database file.
        timeout: Seconds a write waits for another process's write to finish.

    Raises:
        HistoryError: When the file cannot be created or opened, is not a SQLite database,
            or was written by a newer gent.
    """

    def __init__(self, path: Path | str, *, timeout: float = 5.0) -> None:
        self.path = Path(path)
        self.timeout = timeout
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                self.path, timeout=timeout, isolation_level=None, check_same_thread=False
            )
        except (OSError, sqlite3.Error) as error:
            raise self._problem("cannot be opened", error) from None
        try:
            self._db.create_function("config_matches", 2, config_matches, deterministic=True)
            self._db.execute("PRAGMA foreign_keys = ON")
            self._db.execute("PRAGMA journal_mode = WAL")
            # WAL's usual setting: a commit is not flushed to disk on its own (a checkpoint
            # is); the file stays consistent, and a power cut loses at most the last records.
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._migrate()
        except sqlite3.Error as error:
            self._db.close()
            raise self._problem("cannot be read", error) from None

    # -- errors ---------------------------------------------------------------------------

    def _problem(self, what: str, error: BaseException) -> HistoryError:
        detail = str(error) or type(error).__name__
        lowered = detail.lower()
        if "locked" in lowered or "busy" in lowered:
            hint = (
                f"Another gent process held it for over {self.timeout:g} s; try again, or "
                "give --no-log to run without logging."
            )
        elif "not a database" in lowered or "malformed" in lowered or "corrupt" in lowered:
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

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (``BEGIN IMMEDIATE``: writers take turns)."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise self._problem("cannot be written", error) from None
        try:
            yield self._db
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

    def _read(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        try:
            return self._db.execute(sql, parameters).fetchall()
        except sqlite3.Error as error:
            raise self._problem("cannot be read", error) from None

    # -- schema ---------------------------------------------------------------------------

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
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
                for statement in _statements(MIGRATIONS[number]):
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
    ) -> str:
        """Add a run and return its id. A run with no ``conversation_id`` starts its own
        conversation (the run's id).
        """
        run_id = new_run_id()
        started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        with self._writing() as db:
            db.execute(
                "INSERT INTO runs (id, conversation_id, started, task, config_name, config, "
                "system_prompt, resumed_from) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    run_id,
                    conversation_id or run_id,
                    started,
                    _storable(task),
                    _storable(config_name),
                    None if config is None else write_json(config),
                    _storable(system_prompt),
                    resumed_from,
                ),
            )
        return run_id

    def add_record(self, run_id: str, record: dict[str, Any]) -> None:
        """Append one transcript record (a JSON-ready dict with a ``type``) to a run.

        A ``step`` record also fills ``tool_calls`` and the run's step count; an ``end``
        record (its ``stats`` as :meth:`RunStats.to_dict <gent_core._agent.RunStats.to_dict>`
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
    def _add_step(db: sqlite3.Connection, run_id: str, record: dict[str, Any]) -> None:
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
                    _storable(str(call.get("tool", ""))),
                    write_json(call.get("args", {})),
                    str(call.get("status", "")),
                    write_json(call.get("output")),
                    _storable(_text_or_none(call.get("error"))),
                )
                for position, call in enumerate(calls)
                if isinstance(call, dict)
            ],
        )
        db.execute("UPDATE runs SET steps = MAX(steps, ?) WHERE id = ?", (step, run_id))

    @staticmethod
    def _end(db: sqlite3.Connection, run_id: str, record: dict[str, Any]) -> None:
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
                _storable(_text_or_none(record.get("message"))),
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
        sql = f"SELECT {_SUMMARY_COLUMNS} FROM runs"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            parameters.append(limit)
        return [_summary(row) for row in self._read(sql, parameters)]

    def get_run(self, run_id: str) -> RunSummary:
        """The run with this id, or the one run whose id starts with it (case-insensitive).

        Raises:
            HistoryError: When no run, or several, match.
        """
        wanted = run_id.strip().upper()
        if not wanted:
            raise HistoryError("give a run id (gent logs lists them)")
        rows = self._read(
            f"SELECT {_SUMMARY_COLUMNS} FROM runs WHERE id >= ? AND id < ? ORDER BY id LIMIT 2",
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
        return _summary(rows[0])

    def last_run(self) -> RunSummary | None:
        """The newest run, or ``None`` when nothing is logged."""
        runs = self.list_runs(limit=1)
        return runs[0] if runs else None

    def records(self, run_id: str) -> list[dict[str, Any]]:
        """The run's transcript records, in order.

        Raises:
            HistoryError: When the database cannot be read, or a record is not a JSON object.
        """
        rows = self._read("SELECT seq, data FROM records WHERE run_id = ? ORDER BY seq", (run_id,))
        records = []
        for seq, data in rows:
            try:
                record = json.loads(data)
            except (TypeError, ValueError) as error:
                record = error
            if not isinstance(record, dict):
                raise HistoryError(
                    f"record {seq} of the logged run {run_id} is damaged: not a JSON object",
                    location=Location(file=str(self.path)),
                    hint=f"The file is damaged: move it away (mv {self.path} {self.path}.bad) "
                    "and gent starts a new one.",
                )
            records.append(record)
        return records

    def count(self) -> int:
        """How many runs are logged."""
        return int(self._read("SELECT COUNT(*) FROM runs")[0][0])


def _statements(script: str) -> Iterator[str]:
    """Split a migration script into statements (``sqlite3.complete_statement`` decides
    where each ends, so ``;`` inside a trigger body does not).
    """
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            if pending.strip():
                yield pending.strip()
            pending = ""
    if pending.strip():
        yield pending.strip()
