"""The history database: schema, writing runs, the queries of ``gent logs``, and damage."""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gent_history.store import (
    MIGRATIONS,
    HistoryError,
    HistoryStore,
    config_matches,
    fts_query,
    new_run_id,
)
from hypothesis import given, settings
from hypothesis import strategies as st


def _step(index: int, *calls: tuple[str, str]) -> dict[str, Any]:
    return {
        "type": "step",
        "index": index,
        "output": f"output {index}",
        "outcome": "action" if calls else "answer",
        "calls": [
            {"id": str(n), "tool": tool, "args": {"x": n}, "status": status, "output": n}
            for n, (tool, status) in enumerate(calls)
        ],
    }


def _end(answer: Any, stop_reason: str = "answer", *, tokens: bool = True) -> dict[str, Any]:
    return {
        "type": "end",
        "stop_reason": stop_reason,
        "message": "done",
        "answer": answer,
        "stats": {
            "input_tokens": 10 if tokens else 0,
            "output_tokens": 5 if tokens else 0,
            "model_calls": [
                {"input_tokens": 10 if tokens else None, "output_tokens": 5 if tokens else None}
            ],
            "seconds": {"total": 1.5},
        },
    }


def _log(store: HistoryStore, task: str, answer: Any, **options: Any) -> str:
    stop_reason = options.pop("stop_reason", "answer")
    run_id = store.start_run(task=task, config_name=options.pop("config", "built-in"), **options)
    store.add_record(run_id, {"type": "run", "task": task})
    store.add_record(run_id, _step(1, ("calculator", "success"), ("read_file", "error")))
    store.add_record(run_id, _step(2))
    store.add_record(run_id, _end(answer, stop_reason))
    return run_id


@pytest.fixture
def store(tmp_path: Path) -> Iterator[HistoryStore]:
    with HistoryStore(tmp_path / "deep" / "logs.db") as opened:
        yield opened


def test_run_ids_sort_by_creation_and_are_unique() -> None:
    ids = [new_run_id() for _ in range(200)]
    assert len(set(ids)) == 200
    assert all(len(run_id) == 26 for run_id in ids)
    assert ids == sorted(ids)  # also within one millisecond: ids made in a row only grow


def test_run_ids_made_at_the_same_millisecond_keep_their_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import time

    monkeypatch.setattr(time, "time_ns", lambda: 1_764_000_000_000_000_000)
    ids = [new_run_id() for _ in range(50)]
    assert ids == sorted(ids) and len(set(ids)) == 50


def test_a_new_database_is_created_with_its_directory_at_the_latest_schema(
    store: HistoryStore,
) -> None:
    assert store.path.exists()
    assert store.schema_version == len(MIGRATIONS)
    mode = sqlite3.connect(store.path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_a_logged_run_keeps_its_records_calls_and_summary(store: HistoryStore) -> None:
    run_id = _log(store, "What is 17 * 23?", "391", config="examples/calculator.yaml")
    summary = store.get_run(run_id)
    assert (summary.task, summary.answer, summary.stop_reason) == (
        "What is 17 * 23?",
        "391",
        "answer",
    )
    assert (summary.steps, summary.input_tokens, summary.output_tokens) == (2, 10, 5)
    assert summary.seconds == 1.5 and summary.ok
    assert [record["type"] for record in store.records(run_id)] == ["run", "step", "step", "end"]
    calls = (
        sqlite3.connect(store.path)
        .execute(
            "SELECT step, position, tool, status, arguments FROM tool_calls WHERE run_id = ?",
            (run_id,),
        )
        .fetchall()
    )
    assert calls == [
        (1, 0, "calculator", "success", '{"x": 0}'),
        (1, 1, "read_file", "error", '{"x": 1}'),
    ]


def test_unreported_tokens_are_null_not_zero(store: HistoryStore) -> None:
    run_id = store.start_run(task="t", config_name="built-in")
    store.add_record(run_id, _end("a", tokens=False))
    summary = store.get_run(run_id)
    assert summary.input_tokens is None and summary.output_tokens is None
    assert summary.to_dict()["tokens_reported"] is False


def test_a_typed_answer_is_stored_as_json_text(store: HistoryStore) -> None:
    run_id = store.start_run(task="t", config_name="built-in")
    store.add_record(run_id, _end({"value": 3, "unit": "m"}))
    assert json.loads(store.get_run(run_id).answer or "") == {"value": 3, "unit": "m"}


def test_runs_are_listed_newest_first_with_a_limit(store: HistoryStore) -> None:
    ids = [_log(store, f"task {n}", str(n)) for n in range(5)]
    assert [run.id for run in store.list_runs(limit=3)] == ids[::-1][:3]
    assert len(store.list_runs(limit=None)) == 5
    assert store.count() == 5
    last = store.last_run()
    assert last is not None and last.id == ids[-1]


def test_search_finds_words_in_tasks_and_answers(store: HistoryStore) -> None:
    prime = _log(store, "Is 97 a prime number?", "Yes, 97 is prime.")
    _log(store, "What is 2 ** 10?", "1024")
    berlin = _log(store, "What time is it?", "It is noon in Berlin.")
    assert [run.id for run in store.list_runs(query="prime")] == [prime]
    assert [run.id for run in store.list_runs(query="berlin NOON")] == [berlin]
    assert store.list_runs(query="prime berlin") == []


@pytest.mark.parametrize(
    "query", ['"', "AND", "a OR", "NEAR(", "*", "col:x", "-x", "'", "\\", "a\x00b"]
)
def test_any_search_text_is_a_valid_query(store: HistoryStore, query: str) -> None:
    _log(store, "plain task", "plain answer")
    assert isinstance(store.list_runs(query=query), list)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=40))
def test_fts_query_accepts_random_text(text: str) -> None:
    with sqlite3.connect(":memory:") as db:
        db.execute("CREATE VIRTUAL TABLE t USING fts5 (a)")
        db.execute("INSERT INTO t VALUES ('some text')")
        if fts_query(text):
            db.execute("SELECT * FROM t WHERE t MATCH ?", (fts_query(text),)).fetchall()


def test_filters_by_config_and_failure(store: HistoryStore) -> None:
    calc = _log(store, "a", "1", config="examples/calculator.yaml")
    failed = _log(store, "b", None, config="agent.yaml", stop_reason="max_steps")
    unfinished = store.start_run(task="c", config_name="built-in")
    for name in ("calculator", "calculator.yaml", "examples/calculator.yaml"):
        assert [run.id for run in store.list_runs(config=name)] == [calc]
    assert store.list_runs(config="calc") == []
    assert [run.id for run in store.list_runs(failed=True)] == [unfinished, failed]


def test_config_names_match_by_path_file_or_stem() -> None:
    assert config_matches("/home/me/agents/mcp.yaml", "mcp")
    assert config_matches("C:\\agents\\mcp.yaml", "mcp.yaml")
    assert not config_matches("mcp-extra.yaml", "mcp")
    assert not config_matches(None, "mcp")


def test_a_run_is_found_by_a_unique_prefix_of_its_id(store: HistoryStore) -> None:
    run_id = _log(store, "a", "1")
    assert store.get_run(run_id.lower()[:20]).id == run_id
    with pytest.raises(HistoryError, match="no logged run"):
        store.get_run("ZZZZ")


def test_an_ambiguous_prefix_is_refused(store: HistoryStore) -> None:
    first, second = _log(store, "a", "1"), _log(store, "b", "2")
    common = next(n for n in range(26) if first[n] != second[n])
    with pytest.raises(HistoryError, match="several logged runs"):
        store.get_run(first[:common])


def test_conversations_group_runs(store: HistoryStore) -> None:
    first = _log(store, "a", "1")
    second = _log(store, "b", "2", conversation_id=first)
    _log(store, "other", "3")
    assert [run.id for run in store.list_runs(conversation_id=first, limit=None)] == [second, first]


def test_a_file_that_is_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "logs.db"
    path.write_bytes(b"this is not a database at all, just text" * 100)
    with pytest.raises(HistoryError) as raised:
        HistoryStore(path)
    message = str(raised.value)
    assert str(path) in message and "damaged" in message and "--no-log" in message


def test_a_database_from_a_newer_gent_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "logs.db"
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    with pytest.raises(HistoryError, match="Upgrade gent"):
        HistoryStore(path)


def test_a_directory_that_cannot_be_created_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(HistoryError, match="GENT_HOME"):
        HistoryStore(blocker / "logs.db")


def test_a_lock_held_too_long_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "logs.db"
    HistoryStore(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with HistoryStore(path, timeout=0.05) as store, pytest.raises(HistoryError) as raised:
            store.start_run(task="t", config_name="built-in")
        assert "Another gent process" in str(raised.value)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def _log_many(path: str, worker: int, runs: int) -> None:
    with HistoryStore(path, timeout=30) as store:
        for number in range(runs):
            _log(store, f"task of worker{worker} number {number}", str(number))


def test_concurrent_processes_log_every_run(tmp_path: Path) -> None:
    path = tmp_path / "logs.db"
    HistoryStore(path).close()
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_log_many, args=(str(path), n, 15)) for n in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
        assert worker.exitcode == 0
    with HistoryStore(path) as store:
        assert store.count() == 45
        assert all(len(store.records(run.id)) == 4 for run in store.list_runs(limit=None))
        assert len(store.list_runs(query="worker2", limit=None)) == 15


def test_a_damaged_record_is_a_history_error_naming_the_run(store: HistoryStore) -> None:
    run_id = _log(store, "task", "answer")
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE records SET data = '{not json' WHERE run_id = ? AND seq = 2", (run_id,))
    with pytest.raises(HistoryError, match=f"record 2 of the logged run {run_id} is damaged"):
        store.records(run_id)
