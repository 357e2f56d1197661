"""gent-history's answer to ``gent_resolve_run``: a run resumed from a transcript file is
logged whole, a logged run is read back for ``--resume ID``, and ``--no-log`` logs nothing
while ``--continue`` still reads the history."""

from __future__ import annotations

from pathlib import Path

import pytest
from gent_history.plugin import gent_resolve_run
from gent_history.session import HistorySession
from history_helpers import CALL, config, gent, halting, logs_json
from history_plugin import Spy


def test_a_run_resumed_from_a_transcript_file_is_logged_whole(
    spy: Spy, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = halting(tmp_path / "agent.yaml", "ctrl_c")
    code, _, err = gent(capsys, "run", agent, "Long task", "--transcript", "t.jsonl", "-q")
    assert code == 130 and "--resume t.jsonl" in err
    rest = config(tmp_path / "rest.yaml", "<answer>done</answer>", tools=["calculator", "ctrl_c"])
    code, out, err = gent(capsys, "run", rest, "--resume", "t.jsonl", "-q")
    assert (code, out) == (0, "done\n"), err
    newest = logs_json(capsys, "-n", "1")[0]
    assert (newest["task"], newest["answer"], newest["resumed_from"]) == ("Long task", "done", None)
    records = logs_json(capsys, "show", newest["id"])["records"]
    assert [record["type"] for record in records] == ["run", "step", "resume", "step", "end"]


def test_the_hook_reads_a_logged_run_back_for_resume_id(
    spy: Spy, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, _ = gent(capsys, "run", halting(tmp_path / "agent.yaml", "ctrl_c"), "Long task")
    assert code == 130
    (interrupted,) = logs_json(capsys)
    history = gent_resolve_run(
        resume=interrupted["id"][:8], continue_conversation=False, log=True, command="gent run"
    )
    try:
        assert isinstance(history, HistorySession)
        assert history.where == f"the logged run {interrupted['id']}"
        assert history.header is not None and history.header["task"] == "Long task"
        transcript = history.transcript
        assert transcript is not None and len(transcript.steps) == 1  # type: ignore[attr-defined]
        assert (history.history, history.continued, history.run_id) == ([], None, None)
    finally:
        history.close()  # lets go of the run's lock


def test_no_log_logs_nothing_and_continue_still_reads_the_conversation(
    spy: Spy, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = config(tmp_path / "agent.yaml", CALL, "<answer>391</answer>", "<answer>782</answer>")
    assert gent(capsys, "run", agent, "What is 17 * 23?", "-q")[0] == 0
    history = gent_resolve_run(
        resume=None, continue_conversation=True, log=False, command="gent run"
    )
    assert history.continued is not None and history.continued.endswith("(1 earlier turn)")
    first = history.history[0]
    assert (first.role, first.text) == ("user", "What is 17 * 23?")
    code, out, err = gent(capsys, "run", agent, "-c", "And twice that?", "--no-log", "-q")
    assert (code, out) == (0, "391\n"), err
    assert len(logs_json(capsys)) == 1
