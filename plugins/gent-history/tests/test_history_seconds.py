"""Issue 26, section 3: "A cancelled chat turn is logged as 0.0 s". The run interrupted by
Ctrl-C ends before the loop measures it; the history logs the time it really ran."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest
from history_helpers import gent, halting, logs_json
from history_plugin import Spy

from gent_core.testing import PluginSandbox


def _end_stats(capsys: pytest.CaptureFixture[str], run_id: str) -> Any:
    records = logs_json(capsys, "show", run_id)["records"]
    assert records[-1]["type"] == "end"
    return records[-1]["stats"]


def test_a_cancelled_chat_turn_is_logged_with_the_time_it_ran(
    spy: Spy,
    home: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    agent = halting(tmp_path / "agent.yaml", "ctrl_c")
    monkeypatch.setattr(sys, "stdin", io.StringIO("Long task\n!exit\n"))
    code, _, err = gent(capsys, "chat", agent, "-q")
    assert code == 0, err
    assert "gent chat: turn cancelled" in err
    (run,) = logs_json(capsys)
    assert (run["stop_reason"], run["steps"]) == ("cancelled", 1)
    seconds = _end_stats(capsys, run["id"])["seconds"]
    # the whole run, at least its two model calls and its first tool call
    assert run["seconds"] == seconds["total"] > 0
    assert seconds["total"] >= seconds["model"] + seconds["tools"] > 0


def test_an_interrupted_gent_run_is_logged_with_the_time_it_ran(
    spy: Spy, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # variant: gent run, Ctrl-C from the tool
    agent = halting(tmp_path / "agent.yaml", "ctrl_c")
    assert gent(capsys, "run", agent, "Long task", "-q")[0] == 130
    (run,) = logs_json(capsys)
    seconds = _end_stats(capsys, run["id"])["seconds"]
    assert run["stop_reason"] == "cancelled"
    assert run["seconds"] == seconds["total"] >= seconds["model"] + seconds["tools"] > 0


def test_an_interrupted_runs_result_holds_the_time_it_ran(
    spy: Spy,
    installed: PluginSandbox,
    home: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # variant: what the loop itself reports to gent_run_finished (observers, gent-otel), not
    # only what the history measured around it
    from gent_core import hookimpl
    from gent_core.context import ExecutionContext

    finished: list[Any] = []

    class Observer:
        @hookimpl
        def gent_run_finished(self, result: Any, context: ExecutionContext) -> None:
            finished.append(result)

    installed.register(Observer(), "observer")
    agent = halting(tmp_path / "agent.yaml", "ctrl_c")
    assert gent(capsys, "run", agent, "Long task", "-q")[0] == 130
    (result,) = finished
    assert result.stop_reason == "cancelled"
    stats = result.stats
    assert stats.total_seconds >= stats.model_seconds + stats.tool_seconds > 0
