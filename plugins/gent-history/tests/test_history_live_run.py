"""Issue 24, "Resuming a live run": ``gent run --resume ID`` refuses a run that another
process is still running (or resuming), as a transcript's lock refuses a second writer; a run
left unfinished by a process that is gone stays resumable.

The live run is a real ``gent run`` in another process, its model silent for an hour
(``tests/cli/chat_plugin.py``'s ``hang``). The waits only guard against a hang; nothing is
timed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from gent_history.errors import HistoryError
from gent_history.replay import resumable_run
from gent_history.running import lock_path
from gent_history.store import HistoryStore
from history_helpers import config, gent, halting, logs_json
from history_plugin import Spy

from tests.cli.chat_plugin import install_chat_plugin

HANG_GUARD = 60.0


def _wait_for(condition: str, check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + HANG_GUARD
    while not check():
        assert time.monotonic() < deadline, f"never: {condition}"
        time.sleep(0.05)


def _logged_ids(database: Path) -> list[str]:
    if not database.exists():
        return []
    with HistoryStore(database) as store:
        return [run.id for run in store.list_runs(limit=None)]


@pytest.fixture
def live_run(home: Path, tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``gent run`` of a task whose model never answers, in another process."""
    (tmp_path / "hang.yaml").write_text(
        json.dumps({"model": {"name": "recall", "directory": str(tmp_path)}, "tools": []})
    )
    environment = {key: value for key, value in os.environ.items() if not key.startswith("GENT_")}
    environment.update(install_chat_plugin(tmp_path / "site"), GENT_HOME=str(home))
    process = subprocess.Popen(
        [sys.executable, "-m", "gent_core", "run", "hang.yaml", "hang", "-q"],
        cwd=tmp_path,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for("the model was called", (tmp_path / "started").exists)
        _wait_for("the run was logged", lambda: len(_logged_ids(home / "logs.db")) == 1)
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(HANG_GUARD)


def test_resuming_a_run_another_process_is_running_is_refused_until_it_is_gone(
    spy: Spy,
    live_run: subprocess.Popen[bytes],
    home: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (running,) = _logged_ids(home / "logs.db")
    rest = config(tmp_path / "rest.yaml", "<answer>done</answer>", tools=[])
    code, out, err = gent(capsys, "run", rest, "--resume", running, "-q")
    assert (code, out) == (2, "")
    (first, *_) = err.splitlines()
    assert first == (
        f"gent run: error: the logged run {running} is still running in another process; "
        "two processes cannot continue one run"
    )
    assert "Traceback" not in err
    live_run.send_signal(signal.SIGKILL)  # the process is gone: the run is left unfinished
    live_run.wait(HANG_GUARD)
    code, out, err = gent(capsys, "run", rest, "--resume", running, "-q")
    assert (code, out) == (0, "done\n"), err
    resumed = logs_json(capsys, "-n", "1")[0]
    assert (resumed["resumed_from"], resumed["answer"]) == (running, "done")


def test_a_run_being_resumed_cannot_be_resumed_again_and_a_finished_run_leaves_no_lock(
    spy: Spy, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # variant: the second process is a resume of the same run, not the run itself
    crashing = halting(tmp_path / "halt.yaml", "crash")
    assert gent(capsys, "run", crashing, "Long task", "-q")[0] == 130
    (interrupted,) = logs_json(capsys)
    with HistoryStore(home / "logs.db") as store:
        first = resumable_run(store, interrupted["id"])
        with pytest.raises(HistoryError, match="is still running in another process"):
            resumable_run(store, interrupted["id"])
        assert first.lock is not None
        first.lock.release()
        again = resumable_run(store, interrupted["id"])
        assert again.lock is not None
        again.lock.release()
    assert not lock_path(home / "logs.db", interrupted["id"]).exists()
    rest = config(tmp_path / "rest.yaml", "<answer>done</answer>", tools=["calculator", "crash"])
    assert gent(capsys, "run", rest, "--resume", interrupted["id"], "-q")[0] == 0
    finished = logs_json(capsys, "-n", "1")[0]["id"]
    assert not lock_path(home / "logs.db", finished).exists()
    assert list(lock_path(home / "logs.db", finished).parent.iterdir()) == []
