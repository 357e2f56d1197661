"""The history database's schema: one script per version, applied in order when a file is
opened (:meth:`HistoryStore._migrate <gent_history.store.HistoryStore>`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

__all__ = ["MIGRATIONS", "statements"]

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


def statements(script: str) -> Iterator[str]:
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
