"""Issue 24, "Ctrl-C on a busy history": the recorder's writes wait for another process's
lock on a thread of their own, never in the event loop, and after Ctrl-C they do not wait.

Another process's write is a second connection holding ``BEGIN IMMEDIATE``. Nothing is
timed: the tests count (ticks of a task on the loop, jobs the writer finished) and read what
was logged and warned.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from gent_history.recorder import HistoryRecorder
from gent_history.store import HistoryStore
from gent_json.chain import JSONToolChain
from gent_xml.format import XMLFormat
from history_helpers import config, gent, halting, logs_json
from history_plugin import Spy

from gent_core import Agent
from gent_core.testing import ScriptedModel
from gent_core.tools import tool

TICKS = 1_000
"""Turns of the event loop a test waits for while a write waits for the lock."""


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool
async def hang() -> str:
    """Wait until cancelled."""
    await asyncio.Event().wait()
    return "never"


ADD = '<action>{"tool": "add", "args": {"a": 2, "b": 3}}</action>'
HANG = '<action>{"tool": "hang", "args": {}}</action>'


@pytest.fixture
def database(tmp_path: Path) -> Path:
    path = tmp_path / "logs.db"
    HistoryStore(path).close()
    return path


@pytest.fixture
def held(database: Path) -> Iterator[sqlite3.Connection]:
    """Another process's write transaction on the database, until the test releases it."""
    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        yield holder
    finally:
        if holder.in_transaction:
            holder.execute("ROLLBACK")
        holder.close()


def _agent(*outputs: str) -> Agent:
    return Agent(ScriptedModel(list(outputs)), XMLFormat(), JSONToolChain(), tools=[add, hang])


def test_the_loop_keeps_running_while_a_write_waits_and_the_run_is_logged_after(
    database: Path, held: sqlite3.Connection
) -> None:
    agent = _agent(ADD, "<answer>5</answer>")
    recorder = HistoryRecorder(agent, path=database, timeout=120)
    agent.middleware.append(recorder)
    ticks = 0
    finished_jobs = []

    async def scenario() -> str:
        nonlocal ticks
        result = await agent.run("What is 2 + 3?")  # every write is queued, none done
        while ticks < TICKS:  # the loop turns while the first write waits for the lock
            ticks += 1
            await asyncio.sleep(0)
        finished_jobs.append(recorder._writer.done)
        return str(result.answer)

    assert asyncio.run(scenario()) == "5"
    assert (ticks, finished_jobs) == (TICKS, [0])
    held.execute("ROLLBACK")  # the other process is done: the queued writes go through
    recorder.close()
    assert not recorder.failed
    with HistoryStore(database) as store:
        (run,) = store.list_runs()
        assert (run.id, run.answer, run.steps) == (recorder.run_id, "5", 2)
        assert [record["type"] for record in store.records(run.id)] == [
            "run",
            "step",
            "step",
            "end",
        ]


def test_after_ctrl_c_closing_does_not_wait_for_the_lock_and_says_so(
    database: Path, held: sqlite3.Connection, caplog: pytest.LogCaptureFixture
) -> None:
    agent = _agent(HANG)
    recorder = HistoryRecorder(agent, path=database, timeout=120)
    agent.middleware.append(recorder)

    model = agent.model
    assert isinstance(model, ScriptedModel)

    async def scenario() -> None:
        running = asyncio.create_task(agent.run("Wait"))
        while not model.requests:  # the run has started
            await asyncio.sleep(0)
        running.cancel()  # what Ctrl-C does to the command's task
        with pytest.raises(asyncio.CancelledError):
            await running

    asyncio.run(scenario())
    with caplog.at_level(logging.WARNING, logger="gent.history"):
        recorder.close()  # returns while the other process still holds the lock
    assert held.in_transaction
    (warning,) = [record.getMessage() for record in caplog.records]
    assert warning.startswith("this run is not logged: the history database cannot be written")
    assert "this run was interrupted, so gent did not wait for it" in warning
    assert recorder.failed and recorder.run_id is None
    held.execute("ROLLBACK")
    with HistoryStore(database) as store:
        assert store.count() == 0  # as the warning says: nothing was written after it


def test_ctrl_c_of_gent_run_on_a_held_history_exits_with_one_warning(
    spy: Spy,
    home: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # variant: the command line, Ctrl-C pressed by a tool while another process holds the lock
    agent = config(tmp_path / "agent.yaml", "<answer>first</answer>")
    assert gent(capsys, "run", agent, "create the database", "-q")[0] == 0
    interrupted = halting(tmp_path / "halt.yaml", "ctrl_c")
    holder = sqlite3.connect(home / "logs.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        code, _, err = gent(capsys, "run", interrupted, "Long task", "--json")
        assert holder.in_transaction
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert code == 130
    warning, interrupted = [line for line in err.splitlines() if line]
    assert "this run is not logged" in warning and "did not wait" in warning
    assert interrupted == "gent run: interrupted"  # no --resume of a run that is not logged
    assert [run["task"] for run in logs_json(capsys)] == ["create the database"]


def test_a_lock_taken_during_the_run_leaves_the_run_logged_up_to_there_and_resumable(
    database: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # variant: another process takes the lock after the run's start was written
    agent = _agent(HANG)
    recorder = HistoryRecorder(agent, path=database, timeout=120)
    agent.middleware.append(recorder)
    holder = sqlite3.connect(database, isolation_level=None)
    model = agent.model
    assert isinstance(model, ScriptedModel)

    async def scenario() -> str | None:
        running = asyncio.create_task(agent.run("Wait"))
        while not model.requests:
            await asyncio.sleep(0)
        while recorder.written < 2:  # the run's start and header are written
            await asyncio.sleep(0)
        logged = recorder.run_id
        holder.execute("BEGIN IMMEDIATE")
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await running
        return logged

    try:
        logged = asyncio.run(scenario())
        with caplog.at_level(logging.WARNING, logger="gent.history"):
            recorder.close()
        assert holder.in_transaction
    finally:
        if holder.in_transaction:
            holder.execute("ROLLBACK")
        holder.close()
    (warning,) = [record.getMessage() for record in caplog.records]
    assert warning.startswith(f"the rest of run {logged} is not logged: ")
    with HistoryStore(database) as store:
        (run,) = store.list_runs()
        assert (run.id, run.stop_reason) == (logged, None)  # no end: --resume continues it
        assert [record["type"] for record in store.records(run.id)] == ["run"]


def test_the_writes_queued_while_the_writer_waits_go_in_together(
    database: Path, held: sqlite3.Connection
) -> None:
    agent = _agent(ADD, "<answer>5</answer>")
    recorder = HistoryRecorder(agent, path=database, timeout=120)
    agent.middleware.append(recorder)
    assert agent.run_sync("What is 2 + 3?").answer == "5"  # the first write waits meanwhile
    held.execute("ROLLBACK")
    recorder.close()
    # start, header, two steps, end: at most the start and header in the first transaction
    assert (recorder.written, recorder._writer.done) == (5, 2)
    with HistoryStore(database) as store:
        (run,) = store.list_runs()
        assert [record["type"] for record in store.records(run.id)] == [
            "run",
            "step",
            "step",
            "end",
        ]
