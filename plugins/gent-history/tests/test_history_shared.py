"""The process's connection to the history database (:mod:`gent_history.shared`): opened once
for the runs of a process, opened anew when the file was moved away, and closed (its log
checkpointed into the database) when the process ends. Nothing is timed: the tests count
the databases opened and look at the files.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from gent_history import shared
from gent_history.recorder import HistoryRecorder
from gent_history.store import HistoryStore
from gent_history.writer import run_on_writer
from gent_json.chain import JSONToolChain
from gent_xml.format import XMLFormat

from gent_core import Agent
from gent_core.testing import ScriptedModel


def _log_run(database: Path, answer: str) -> HistoryRecorder:
    agent = Agent(ScriptedModel([f"<answer>{answer}</answer>"]), XMLFormat(), JSONToolChain())
    recorder = HistoryRecorder(agent, path=database)
    agent.middleware.append(recorder)
    assert agent.run_sync(f"Say {answer}").answer == answer
    recorder.close()
    assert not recorder.failed
    return recorder


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The paths of the history databases opened from now on."""
    paths: list[Path] = []
    original = HistoryStore.__init__

    def counting(self: HistoryStore, path: Path | str, *, timeout: float = 5.0) -> None:
        paths.append(Path(path))
        original(self, path, timeout=timeout)

    monkeypatch.setattr(HistoryStore, "__init__", counting)
    run_on_writer(shared.discard).wait()
    return paths


def test_the_runs_of_one_process_share_one_connection(tmp_path: Path, opened: list[Path]) -> None:
    database = tmp_path / "logs.db"
    first = _log_run(database, "one")
    second = _log_run(database, "two")
    assert opened == [database]
    with HistoryStore(database) as store:
        assert [run.id for run in store.list_runs()] == [second.run_id, first.run_id]


def test_a_database_moved_away_is_opened_anew(tmp_path: Path, opened: list[Path]) -> None:
    database = tmp_path / "logs.db"
    first = _log_run(database, "one")
    database.rename(tmp_path / "logs.db.bad")
    second = _log_run(database, "two")
    assert opened == [database, database]
    with HistoryStore(database) as store:
        assert [run.id for run in store.list_runs()] == [second.run_id]
    assert first.run_id != second.run_id


def test_another_database_is_opened_and_the_first_closed(
    tmp_path: Path, opened: list[Path]
) -> None:
    _log_run(tmp_path / "a.db", "one")
    _log_run(tmp_path / "b.db", "two")
    assert opened == [tmp_path / "a.db", tmp_path / "b.db"]
    assert not (tmp_path / "a.db-wal").exists()  # closed: its log is in the database


def test_the_process_end_checkpoints_the_log_into_the_database(tmp_path: Path) -> None:
    database = tmp_path / "logs.db"
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from test_history_shared import _log_run\n"
        "_log_run(Path(sys.argv[1]), 'one')\n"
        "assert Path(sys.argv[1] + '-wal').exists()  # open until the process ends\n"
    )
    subprocess.run([sys.executable, "-c", script, str(database)], check=True)
    assert not Path(f"{database}-wal").exists()
    with HistoryStore(database) as store:
        assert [run.answer for run in store.list_runs()] == ["one"]
