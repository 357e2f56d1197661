"""Issue 24, "Damaged history rows": a row that gent did not write that way (edited by hand,
or damaged) is one line naming the run and what is wrong, skipped in a listing and refused
where the run itself is needed, never a traceback.

Records are read with the bounded JSON reader of transcript lines; columns are checked for
the types gent writes.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from gent_history.errors import DamagedRow
from gent_history.store import HistoryStore
from history_helpers import CALL, config, gent, halting, logs_json
from history_plugin import Spy

DEEP = 100_000


def _nested(levels: int) -> str:
    return '{"type": "step", "index": 1, "output": ' + "[" * levels + "]" * levels + "}"


@pytest.fixture
def two_runs(spy: Spy, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """Two logged runs of one conversation, the second interrupted (resumable); their ids,
    oldest first."""
    agent = config(tmp_path / "agent.yaml", CALL, "<answer>391</answer>")
    assert gent(capsys, "run", agent, "first task", "-q")[0] == 0
    crashing = halting(tmp_path / "halt.yaml", "crash")
    assert gent(capsys, "run", crashing, "-c", "second task", "-q")[0] == 130
    return [run["id"] for run in reversed(logs_json(capsys))]


def _damage(home: Path, sql: str, *parameters: object) -> None:
    with sqlite3.connect(home / "logs.db") as db:
        db.execute(sql, parameters)
    db.close()


def test_a_record_nested_100000_deep_is_refused_by_show_continue_and_resume(
    two_runs: list[str], home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    latest = two_runs[1]
    _damage(home, "UPDATE records SET data = ? WHERE run_id = ? AND seq = 2", _nested(DEEP), latest)
    for arguments in (
        ["logs", "show", latest],
        ["run", "-c", "more"],
        ["run", "--resume", latest],
    ):
        code, _, err = gent(capsys, *arguments)
        assert code == 2, (arguments, err)
        assert "Traceback" not in err and "RecursionError" not in err
        assert f"record 2 of the logged run {latest} is damaged" in err, (arguments, err)
        assert "levels" in err  # what is wrong: the nesting, with the bound


def test_a_step_count_that_is_text_is_skipped_in_the_list_and_refused_by_show(
    two_runs: list[str], home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, latest = two_runs
    _damage(home, "UPDATE runs SET steps = 'abc' WHERE id = ?", first)
    skipped = [
        f"gent logs: skipped: the logged run {first} is damaged: its steps is 'abc' (str), "
        "not a whole number"
    ]
    code, out, err = gent(capsys, "logs", "-n", "0", "--json")
    assert (code, err.splitlines()) == (0, skipped)
    assert [run["id"] for run in json.loads(out)] == [latest]
    code, out, err = gent(capsys, "logs")
    assert (code, err.splitlines()) == (0, skipped)
    assert out.startswith(f"{latest}  ") and "Task: first task" not in out
    code, _, err = gent(capsys, "logs", "show", first)
    assert code == 2
    assert f"the logged run {first} is damaged: its steps is 'abc'" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("sql", "what"),
    [
        ("UPDATE runs SET seconds = 'slow' WHERE id = ?", "its seconds is 'slow' (str)"),
        ("UPDATE runs SET task = x'00ff' WHERE id = ?", "its task is b'\\x00\\xff' (bytes)"),
        ("UPDATE runs SET task = CAST(x'ff' AS TEXT) WHERE id = ?", "bytes that are not UTF-8"),
        ("UPDATE runs SET input_tokens = 1.5 WHERE id = ?", "its input_tokens is 1.5 (float)"),
        ("UPDATE runs SET answer = x'01' WHERE id = ?", "its answer is b'\\x01' (bytes)"),
    ],
)
def test_other_columns_of_the_wrong_type_are_named(
    two_runs: list[str], home: Path, capsys: pytest.CaptureFixture[str], sql: str, what: str
) -> None:
    # variant: every column is checked, each named with what it holds
    first, latest = two_runs
    _damage(home, sql, first)
    code, out, err = gent(capsys, "logs", "--json")
    assert code == 0, err
    assert [run["id"] for run in json.loads(out)] == [latest]
    (line,) = err.splitlines()
    assert line.startswith(f"gent logs: skipped: the logged run {first} is damaged: ")
    assert what in line


@pytest.mark.parametrize(
    ("data", "what"),
    [
        ("42", "not a JSON object but int"),
        ('{"type": "step", "x": NaN}', "not valid JSON"),
        ('{"type": "step", "n": ' + "9" * 5000 + "}", "digits"),
    ],
    ids=["an-integer", "nan", "5000-digits"],
)
def test_records_that_are_not_json_objects_within_bounds_are_named(
    tmp_path: Path, data: str, what: str
) -> None:
    # variant: the store's reader, under every record check
    with HistoryStore(tmp_path / "logs.db") as store:
        run_id = store.start_run(task="t", config_name="built-in")
        store.add_record(run_id, {"type": "run", "task": "t"})
        with sqlite3.connect(store.path) as db:
            db.execute("UPDATE records SET data = ? WHERE run_id = ?", (data, run_id))
        db.close()
        with pytest.raises(DamagedRow) as raised:
            store.records(run_id)
    message = str(raised.value)
    assert message.startswith(f"record 1 of the logged run {run_id} is damaged: ")
    assert what in message and "\n" not in message


@pytest.mark.parametrize("kind", ["fifo", "link-to-dev-zero", "directory"])
def test_a_database_path_that_is_not_a_regular_file_is_refused_at_once(
    spy: Spy, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    # variant: the database file itself is hostile (a FIFO would hang every read)
    home.mkdir()
    database = home / "logs.db"
    if kind == "fifo":
        os.mkfifo(database)
    elif kind == "directory":
        database.mkdir()
    else:
        database.symlink_to("/dev/zero")
    code, _, err = gent(capsys, "logs")
    assert code == 2
    assert err.splitlines()[0].startswith("gent logs: error: the history database cannot be")
    assert "Traceback" not in err
    agent = config(tmp_path / "agent.yaml", "<answer>still 42</answer>")
    code, out, err = gent(capsys, "run", agent, "Answer anyway", "--json")
    assert (code, json.loads(out)["answer"]) == (0, "still 42")
    (warning,) = err.splitlines()
    assert "this run is not logged: the history database cannot be opened" in warning
