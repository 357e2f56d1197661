"""``gent run`` and its run history through the ``gent_resolve_run`` hook: without a plugin
that keeps one, a run logs nothing and says nothing of it, and ``--continue`` and
``--resume ID`` are refused naming gent-history; a plugin that answers the hook gets the
options, attaches to the agent, and resumes a run it read back."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from gent_core import Agent, hookimpl
from gent_core.messages import Message
from gent_core.testing import PluginSandbox, run_cli
from gent_core.transcript import Transcript, transcript_from_records

CALL = '<action>{"tool": "calculator", "args": {"expression": "17*23"}}</action>'


def _config(path: Path, *outputs: str) -> str:
    path.write_text(
        json.dumps(
            {"model": {"name": "scripted", "outputs": list(outputs)}, "tools": ["calculator"]}
        )
    )
    return str(path)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GENT_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    return tmp_path / "home"


def _gent(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    code = run_cli(list(arguments))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_without_a_run_history_a_run_logs_nothing_and_says_nothing_of_it(
    installed: PluginSandbox, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = _config(tmp_path / "agent.yaml", CALL, "<answer>391</answer>")
    code, out, err = _gent(capsys, "-v", "run", agent, "What is 17 * 23?", "--no-color")
    assert code == 0 and "391" in out
    assert "log" not in err.lower() and "history" not in err.lower()
    assert not home.exists()  # no database, no data directory
    code, out, err = _gent(capsys, "run", agent, "Again", "--no-log", "-q")
    assert (code, out, err) == (0, "391\n", "")  # --no-log is accepted, and means nothing here


@pytest.mark.parametrize("option", [["-c", "And times 2?"], ["--resume", "01JC3Q"]])
def test_continue_and_resume_id_without_a_run_history_name_gent_history(
    installed: PluginSandbox,
    home: Path,
    capsys: pytest.CaptureFixture[str],
    option: list[str],
) -> None:
    code, out, err = _gent(capsys, "run", *option)
    assert (code, out) == (2, "")
    assert f"{option[0] if option[0] != '-c' else '--continue'}" in err
    assert "needs the run history" in err and "gent-history" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) <= 2


def test_resume_of_a_transcript_file_needs_no_run_history(
    installed: PluginSandbox, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _gent(capsys, "run", "--resume", "missing.jsonl")
    assert code == 2 and "cannot read the transcript missing.jsonl" in err
    assert "gent-history" not in err


class _History:
    """A run history of a test: one earlier run to resume, recording what gent run asks."""

    def __init__(self, transcript: Transcript) -> None:
        self.transcript: object | None = transcript
        self.history: Sequence[Message] = []
        self.header: Mapping[str, Any] | None = transcript.header
        self.where = "the test's run"
        self.continued: str | None = None
        self.attached: list[tuple[Agent, bool]] = []
        self.closed = 0

    @property
    def run_id(self) -> str | None:
        return None

    def attach(self, agent: Agent, *, recorded: bool) -> None:
        self.attached.append((agent, recorded))

    def close(self) -> None:
        self.closed += 1


class _Resolver:
    def __init__(self, history: _History) -> None:
        self.history = history
        self.asked: list[tuple[str | None, bool, bool, str]] = []

    @hookimpl
    def gent_resolve_run(
        self, resume: str | None, continue_conversation: bool, log: bool, command: str
    ) -> _History:
        self.asked.append((resume, continue_conversation, log, command))
        return self.history


def test_a_plugin_that_resolves_the_run_resumes_it_with_the_configuration_it_recorded(
    installed: PluginSandbox, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = _config(tmp_path / "agent.yaml", "<answer>391</answer>")
    header = {
        "type": "run",
        "task": "What is 17 * 23?",
        "config": json.loads(Path(agent).read_text()),
    }
    history = _History(transcript_from_records([header], source="the test's run"))
    resolver = _Resolver(history)
    installed.register(resolver, "resolver")
    code, out, err = _gent(capsys, "run", "--resume", "ABC123", "-q", "--no-log")
    assert (code, out) == (0, "391\n"), err
    assert resolver.asked == [("ABC123", False, False, "gent run")]
    ((attached, recorded),) = history.attached
    assert isinstance(attached, Agent) and recorded  # built from the recorded configuration
    assert history.closed == 1


def test_disabling_gent_history_leaves_gent_run_working_and_silent(tmp_path: Path) -> None:
    """In the installed environment (gent-history installed), GENT_DISABLE_PLUGINS=history:
    the run works, logs nothing, and --continue says gent-history is installed but not
    loaded."""
    try:
        metadata.distribution("gent-history")
    except metadata.PackageNotFoundError:
        pytest.skip("gent-history is not installed in this environment")
    agent = _config(tmp_path / "agent.yaml", CALL, "<answer>391</answer>")
    environment = {key: value for key, value in os.environ.items() if not key.startswith("GENT_")}
    environment.update(GENT_HOME=str(tmp_path / "home"), GENT_DISABLE_PLUGINS="history")
    environment.update(GENT_NO_CACHE="1")

    def gent(*arguments: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "gent_core", *arguments]
        return subprocess.run(
            command, cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=120
        )

    done = gent("run", agent, "What is 17 * 23?", "-q")
    assert (done.returncode, done.stdout, done.stderr) == (0, "391\n", "")
    assert not (tmp_path / "home").exists()
    refused = gent("run", "-c", "And times 2?")
    assert refused.returncode == 2
    assert "gent-history keeps it and is installed, but not loaded" in refused.stderr
    unknown = gent("logs")
    assert unknown.returncode == 2 and "logs" in unknown.stderr


class _Broken:
    @hookimpl
    def gent_resolve_run(
        self, resume: str | None, continue_conversation: bool, log: bool, command: str
    ) -> None:
        raise RuntimeError("the database exploded")


def test_a_run_history_that_raises_is_one_line_and_exit_2(
    installed: PluginSandbox, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    installed.register(_Broken(), "broken")
    agent = _config(tmp_path / "agent.yaml", "<answer>391</answer>")
    code, out, err = _gent(capsys, "run", agent, "What is 17 * 23?")
    assert (code, out) == (2, "")
    assert "the run history failed: RuntimeError: the database exploded" in err
    assert "Traceback" not in err
