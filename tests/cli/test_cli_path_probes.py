"""Paths a person gives gent are probed without a traceback (issue 24, "Path probes"): a
300-character name or a directory that cannot be searched is a one-line error, or is not a
config file where that is the right reading.

Through the real CLI in this process (``main([...])``) with the scripted model.
"""

from __future__ import annotations

import argparse
import errno
import os
from pathlib import Path

import pytest

from gent_core._cli.main import main
from gent_core.testing import PluginSandbox

LONG = "x" * 300
CONFIG = "model: {name: scripted, outputs: ['<answer>done</answer>']}\nformat: xml\ntools: []\n"


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GENT_HISTORY", "off")
    (tmp_path / "agent.yaml").write_text(CONFIG)
    return tmp_path


def _one_line_error(capsys: pytest.CaptureFixture[str], *arguments: str) -> str:
    try:
        code = main(list(arguments))
    except SystemExit as exit:  # a usage error found while the arguments are parsed
        code = exit.code  # type: ignore[assignment]
    assert code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "Error" not in err.split(":", 1)[0]  # no exception class leads the line
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith("usage:")]
    assert len(lines) <= 3, err  # the error, at most one hint and the page to read
    return err


def _unsearchable(monkeypatch: pytest.MonkeyPatch, directory: Path) -> None:
    """Make ``os.stat`` of anything in ``directory`` fail with EACCES, as it does for a user
    without search permission there (root may search every directory).
    """
    real_stat = os.stat

    def stat(path: object, *args: object, **kwargs: object) -> os.stat_result:
        if os.fspath(path).startswith(str(directory) + os.sep):  # type: ignore[call-overload]
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))  # type: ignore[call-overload]
        return real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", stat)


def test_cwd_with_a_name_too_long(
    installed: PluginSandbox, work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _one_line_error(capsys, "run", "agent.yaml", "q", "--cwd", LONG)
    assert "cannot be checked (the name is too long); expected an existing directory" in err


def test_cwd_in_a_directory_that_cannot_be_searched(
    installed: PluginSandbox,
    work: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (work / "locked" / "tools").mkdir(parents=True)
    _unsearchable(monkeypatch, work / "locked")
    err = _one_line_error(capsys, "run", "agent.yaml", "q", "--cwd", str(work / "locked" / "tools"))
    assert "cannot be checked (permission denied); expected an existing directory" in err


def test_gent_call_cwd_with_a_name_too_long(
    installed: PluginSandbox, work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _one_line_error(capsys, "call", "calculator", '{"expression": "1"}', "--cwd", LONG)
    assert "cannot be checked (the name is too long); expected an existing directory" in err


@pytest.mark.parametrize("name", [LONG, "/".join(["y" * 200] * 30)])
def test_working_directory_too_long(
    installed: PluginSandbox, work: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """A 300-character name, and a variant: a path past PATH_MAX made of short names."""
    (work / "w.yaml").write_text(CONFIG + f"working_directory: {name}\n")
    err = _one_line_error(capsys, "run", "w.yaml", "q")
    assert "cannot be checked (the name is too long); expected an existing directory" in err
    assert "key 'working_directory'" in err


def test_resume_a_transcript_with_a_name_too_long(
    installed: PluginSandbox, work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _one_line_error(capsys, "run", "agent.yaml", "--resume", LONG + ".jsonl")
    assert "the transcript" in err
    assert "too long" in err


def test_resume_a_transcript_past_the_longest_path(
    installed: PluginSandbox, work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A variant: short names, the whole path past PATH_MAX; and a directory is still named
    as one.
    """
    err = _one_line_error(capsys, "run", "agent.yaml", "--resume", "/".join(["y" * 200] * 30))
    assert "the transcript" in err
    assert "too long" in err
    (work / "run.jsonl").mkdir()
    err = _one_line_error(capsys, "run", "agent.yaml", "--resume", "run.jsonl")
    assert "the transcript run.jsonl: is a directory" in err


def test_a_single_yaml_argument_too_long_to_check(
    installed: PluginSandbox, work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CLI decides whether one argument is a config file: a name that cannot be checked
    is not one, and the message says why rather than "no such file".
    """
    err = _one_line_error(capsys, "run", LONG + ".yaml")
    assert "ends in .yaml like a config file, but it cannot be checked (the name is too long)" in (
        err
    )


def test_a_single_yaml_argument_in_a_directory_that_cannot_be_searched(
    installed: PluginSandbox,
    work: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (work / "locked").mkdir()
    (work / "locked" / "agent.yaml").write_text(CONFIG)
    _unsearchable(monkeypatch, work / "locked")
    err = _one_line_error(capsys, "run", str(work / "locked" / "agent.yaml"))
    assert "but it cannot be checked (permission denied)" in err


def test_a_gent_yaml_that_cannot_be_checked_is_not_used(
    installed: PluginSandbox,
    work: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``./gent.yaml`` is used when it is a file; one that cannot be checked is not used (the
    built-in agent's config is the default), and nothing raises.
    """
    from gent_core._cli import agentconfig

    _unsearchable(monkeypatch, work)
    monkeypatch.setattr(agentconfig, "LOCAL_CONFIG", str(work / "gent.yaml"))
    assert not agentconfig.is_config_file(str(work / "gent.yaml"))
    loaded = agentconfig.load_agent_config(None, argparse.Namespace(overrides=[], no_tools=False))
    assert loaded.source != str(work / "gent.yaml")
