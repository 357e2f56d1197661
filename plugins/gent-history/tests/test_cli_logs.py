"""The run history through the real command line: every ``gent run`` logged, ``gent logs``
(list, search, filters, show, path, off/on), ``--no-log``, ``-c/--continue``, ``--resume ID``,
and a database that cannot be used."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from gent_history.recorder import HistoryRecorder
from history_helpers import CALL, config, gent, logs_json
from history_plugin import Spy


def test_a_run_is_logged_with_its_steps_calls_answer_tokens_and_time(
    spy: Spy, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = config(tmp_path / "agent.yaml", CALL, "<answer>391</answer>")
    code, out, _ = gent(capsys, "run", agent, "What is 17 * 23?", "--json")
    assert code == 0
    result = json.loads(out)
    (run,) = logs_json(capsys)
    assert run["task"] == "What is 17 * 23?"
    assert (run["answer"], run["stop_reason"], run["steps"]) == ("391", "answer", 2)
    assert run["config_name"] == str(tmp_path / "agent.yaml")
    assert run["input_tokens"] == result["stats"]["input_tokens"] > 0
    assert run["output_tokens"] == result["stats"]["output_tokens"] > 0
    assert run["seconds"] == result["stats"]["seconds"]["total"]
    shown = logs_json(capsys, "show", run["id"])
    assert [record["type"] for record in shown["records"]] == ["run", "step", "step", "end"]
    header, first = shown["records"][0], shown["records"][1]
    assert header["config"]["model"]["name"] == "scripted"
    assert "calculator" in header["system_prompt"]
    call = first["calls"][0]
    assert (call["tool"], call["args"], call["output"]) == (
        "calculator",
        {"expression": "17*23"},
        391,
    )
    with sqlite3.connect(home / "logs.db") as db:
        rows = db.execute("SELECT tool, status, output FROM tool_calls").fetchall()
    assert rows == [("calculator", "success", "391")]


def test_gent_logs_lists_newest_first_searches_and_filters(
    spy: Spy, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = config(tmp_path / "answers.yaml", "<answer>Paris is the capital</answer>")
    stops = config(tmp_path / "stops.yml", CALL, CALL)
    assert gent(capsys, "run", answers, "Which city is the capital of France?")[0] == 0
    assert gent(capsys, "run", stops, "Multiply forever", "-o", "max_steps=2")[0] == 1
    assert gent(capsys, "run", answers, "Name a city on the Seine")[0] == 0
    tasks = [run["task"] for run in logs_json(capsys)]
    assert tasks == [
        "Name a city on the Seine",
        "Multiply forever",
        "Which city is the capital of France?",
    ]
    assert [run["task"] for run in logs_json(capsys, "-n", "1")] == ["Name a city on the Seine"]
    # Full-text search: every word, in the task or the answer.
    assert [run["task"] for run in logs_json(capsys, "-q", "capital France")] == [
        "Which city is the capital of France?"
    ]
    assert len(logs_json(capsys, "-q", "paris")) == 2  # in both answers
    assert logs_json(capsys, "-q", 'capital "OR Seine') == []  # no FTS syntax gets through
    failed = logs_json(capsys, "--failed")
    assert [(run["task"], run["stop_reason"]) for run in failed] == [
        ("Multiply forever", "max_steps")
    ]
    assert [run["task"] for run in logs_json(capsys, "--config", "stops")] == ["Multiply forever"]
    assert len(logs_json(capsys, "--config", "answers.yaml")) == 2
    # The text listing: the id, the stop reason, the task and answer exactly.
    code, out, _ = gent(capsys, "logs", "-n", "0")
    assert code == 0
    assert "Task: Which city is the capital of France?\nAnswer: Paris is the capital\n" in out
    assert "max_steps" in out and "Stopped: the run reached its limit of 2 steps" in out
    assert gent(capsys, "logs", "-q", "nowhere-to-be-found")[1] == "No logged run matches.\n"


def test_gent_logs_show_a_run_by_a_start_of_its_id(
    spy: Spy, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = config(tmp_path / "agent.yaml", CALL, "<answer>391</answer>")
    assert gent(capsys, "run", agent, "What is 17 * 23?", "-q")[0] == 0
    (run,) = logs_json(capsys)
    code, out, _ = gent(capsys, "logs", "show", run["id"][:12].lower())
    assert code == 0
    assert out.startswith(f"Run {run['id']}  started ")
    assert "Task: What is 17 * 23?\n" in out
    assert "Step 1 (action" in out and "Step 2 (answer" in out
    assert '  call calculator {"expression": "17*23"} -> success: 391\n' in out
    assert "Answer: 391\nStop: answer; 2 steps;" in out
    code, _, err = gent(capsys, "logs", "show", "ZZZZ")
    assert code == 2
    assert "no logged run has the id 'ZZZZ'" in err and "Traceback" not in err


def test_no_log_and_logs_off_log_nothing_and_logs_on_logs_again(
    spy: Spy, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = config(tmp_path / "agent.yaml", "<answer>a</answer>")
    assert gent(capsys, "logs")[1] == "No runs are logged yet.\n"
    assert gent(capsys, "run", agent, "not logged", "--no-log", "-q")[0] == 0
    assert not (home / "logs.db").exists()
    assert gent(capsys, "logs", "off")[0] == 0
    assert (home / "logs-off").exists()
    assert gent(capsys, "run", agent, "not logged either", "-q")[0] == 0
    assert not (home / "logs.db").exists()
    assert gent(capsys, "logs", "on")[0] == 0
    assert gent(capsys, "run", agent, "logged", "-q")[0] == 0
    assert [run["task"] for run in logs_json(capsys)] == ["logged"]


def test_gent_logs_path_prints_the_database_in_gent_home(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert gent(capsys, "logs", "path") == (0, f"{home / 'logs.db'}\n", "")
    monkeypatch.setenv("GENT_HOME", str(home / "elsewhere"))
    assert gent(capsys, "logs", "path")[1] == f"{home / 'elsewhere' / 'logs.db'}\n"


def test_continue_sends_the_last_conversation_as_history(
    spy: Spy, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = config(tmp_path / "first.yaml", CALL, "<answer>391</answer>")
    assert gent(capsys, "run", first, "What is 17 * 23?", "-q")[0] == 0
    second = config(tmp_path / "second.yaml", "<answer>782</answer>")
    spy.requests.clear()
    code, out, _ = gent(capsys, "run", second, "-c", "And twice that?", "-q")
    assert (code, out) == (0, "782\n")
    (request,) = spy.requests
    # system, then the first run (task, its two outputs and the observation), then the task.
    assert request[1] == "user: What is 17 * 23?"
    assert request[2].startswith("assistant: <thinking>use it</thinking><action>")
    assert request[3].startswith("user: ") and "391" in request[3]
    assert request[4] == "assistant: <answer>391</answer>"
    assert request[5] == "user: And twice that?"
    runs = logs_json(capsys)
    assert runs[0]["conversation_id"] == runs[1]["conversation_id"] == runs[1]["id"]
    # Without a config, --continue takes the one the conversation's last run recorded; a
    # third run carries both earlier ones.
    spy.requests.clear()
    code, _, err = gent(capsys, "run", "--continue", "And again?", "-q")
    assert code == 0, err  # the recorded scripted outputs of second.yaml
    assert [line for line in spy.requests[0] if line.startswith("user: ") and "?" in line] == [
        "user: What is 17 * 23?",
        "user: And twice that?",
        "user: And again?",
    ]
    assert logs_json(capsys, "-n", "1")[0]["config_name"] == str(tmp_path / "second.yaml")


def test_continue_with_nothing_logged_says_so(
    spy: Spy, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = gent(capsys, "run", "-c", "anything")
    assert code == 2
    assert "there is no logged conversation to continue" in err and "Traceback" not in err


@pytest.mark.parametrize(("halt", "stop_reason"), [("ctrl_c", "cancelled"), ("crash", None)])
def test_resume_id_continues_an_interrupted_logged_run(
    spy: Spy,
    home: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    halt: str,
    stop_reason: str | None,
) -> None:
    halting = f'<action>{{"tool": "{halt}", "args": {{}}}}</action>'
    tools = ["calculator", halt]
    agent = config(tmp_path / "agent.yaml", CALL, halting, tools=tools)
    code, _, err = gent(capsys, "run", agent, "Long task", "-q")
    assert code == 130
    (interrupted,) = logs_json(capsys)
    assert (interrupted["stop_reason"], interrupted["steps"]) == (stop_reason, 1)
    assert f"continue with: gent run --resume {interrupted['id']}" in err
    rest = config(tmp_path / "rest.yaml", "<answer>done</answer>", tools=tools)
    spy.requests.clear()
    code, out, err = gent(capsys, "run", rest, "--resume", interrupted["id"][:10], "-q")
    assert (code, out) == (0, "done\n"), err
    (request,) = spy.requests  # the completed step replayed, then the next model call
    assert request[1] == "user: Long task"
    assert request[2].startswith("assistant: <thinking>use it</thinking>")
    resumed = logs_json(capsys, "-n", "1")[0]
    assert resumed["resumed_from"] == interrupted["id"]
    assert resumed["conversation_id"] == interrupted["conversation_id"]
    assert (resumed["task"], resumed["answer"]) == ("Long task", "done")
    records = logs_json(capsys, "show", resumed["id"])["records"]
    assert [record["type"] for record in records] == ["run", "step", "resume", "step", "end"]
    # A run that finished is not resumed; a transcript path still is a transcript.
    code, _, err = gent(capsys, "run", "--resume", resumed["id"])
    assert code == 2 and "already finished (answer); nothing to resume" in err
    code, _, err = gent(capsys, "run", "--resume", "missing.jsonl")
    assert code == 2 and "cannot read the transcript missing.jsonl" in err


def test_a_damaged_database_is_one_warning_and_the_run_completes(
    spy: Spy, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home.mkdir()
    (home / "logs.db").write_bytes(b"this is not a database, just some text " * 100)
    agent = config(tmp_path / "agent.yaml", "<answer>still 42</answer>")
    code, out, err = gent(capsys, "run", agent, "Answer anyway", "--json")
    assert (code, json.loads(out)["answer"]) == (0, "still 42")
    (warning,) = err.splitlines()
    assert "this run is not logged: the history database cannot be read" in warning
    assert "--no-log" in warning
    # A failed run keeps its own exit code.
    failing = config(tmp_path / "failing.yaml", CALL, tools=["calculator"])
    assert gent(capsys, "run", failing, "Fail anyway", "-o", "max_steps=1", "-q")[0] == 1
    code, _, err = gent(capsys, "logs")
    assert code == 2 and "the history database cannot be read" in err and "Traceback" not in err


def test_a_locked_database_is_one_warning_and_the_run_completes(
    spy: Spy,
    home: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The lock is held for the whole run, so waiting 0.1 s for it (not the 5 s default) ends
    # the same way, without sleeping through the default.
    defaults = {**(HistoryRecorder.__init__.__kwdefaults__ or {}), "timeout": 0.1}
    monkeypatch.setattr(HistoryRecorder.__init__, "__kwdefaults__", defaults)
    agent = config(tmp_path / "agent.yaml", "<answer>first</answer>", "<answer>second</answer>")
    assert gent(capsys, "run", agent, "create the database", "-q")[0] == 0
    holder = sqlite3.connect(home / "logs.db", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process writing, for longer than the timeout
    try:
        code, out, err = gent(capsys, "run", agent, "Answer while locked", "--json")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert (code, json.loads(out)["answer"]) == (0, "first")
    (warning,) = err.splitlines()
    assert "this run is not logged" in warning and "locked" in warning


def test_concurrent_runs_in_separate_processes_all_log_whole(home: Path, tmp_path: Path) -> None:
    agent = config(tmp_path / "agent.yaml", CALL, "<answer>391</answer>")
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "gent_core", "run", agent, f"task number {n}", "-q"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(4)
    ]
    for process in processes:
        out, err = process.communicate(timeout=300)
        assert (process.returncode, out, err) == (0, "391\n", "")
    with sqlite3.connect(home / "logs.db") as db:
        tasks = sorted(task for (task,) in db.execute("SELECT task FROM runs"))
        kinds = db.execute(
            "SELECT run_id, group_concat(type, ',') FROM "
            "(SELECT run_id, type FROM records ORDER BY run_id, seq) GROUP BY run_id"
        ).fetchall()
    assert tasks == [f"task number {n}" for n in range(4)]
    assert [types for _, types in kinds] == ["run,step,step,end"] * 4


def test_a_damaged_record_is_a_clear_error_for_show_continue_and_resume(
    spy: Spy, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = config(tmp_path / "agent.yaml", "<answer>a</answer>")
    assert gent(capsys, "run", agent, "task", "-q")[0] == 0
    (run,) = logs_json(capsys)
    with sqlite3.connect(home / "logs.db") as db:
        db.execute("UPDATE records SET data = '[1, 2' WHERE seq = 1")
    for arguments in (["logs", "show", run["id"]], ["run", "-c", "more"]):
        code, _, err = gent(capsys, *arguments)
        assert code == 2, arguments
        assert f"record 1 of the logged run {run['id']} is damaged" in err
        assert "Traceback" not in err
