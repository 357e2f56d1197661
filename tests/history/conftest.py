"""Fixtures of the run-history tests: an empty ``GENT_HOME``, the plugins of the command-line
tests (:func:`tests.cli.conftest.installed`) and the history spy plugin, and helpers to run
``gent`` in-process."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from gent_core._cli.main import main
from gent_core.testing import PluginSandbox
from tests.cli.conftest import installed  # noqa: F401 - the fixture, for this folder too
from tests.cli.history_plugin import Spy

CALL = (
    '<thinking>use it</thinking><action>{"tool": "calculator", "args": {"expression": "17*23"}}'
    "</action>"
)


@pytest.fixture
def spy(installed: PluginSandbox) -> Spy:  # noqa: F811 - the fixture imported above
    watcher = Spy()
    installed.register(watcher, "spy")
    return watcher


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty data directory (``GENT_HOME``) and current directory."""
    monkeypatch.setenv("GENT_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    return tmp_path / "home"


def config(path: Path, *outputs: str, tools: Sequence[str] = ("calculator",)) -> str:
    """Write an agent config on the scripted model; return its path."""
    path.write_text(
        json.dumps({"model": {"name": "scripted", "outputs": list(outputs)}, "tools": list(tools)})
    )
    return str(path)


def gent(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    """Run ``gent`` in-process: its exit status, standard output and standard error."""
    code = main(list(arguments))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def logs_json(capsys: pytest.CaptureFixture[str], *arguments: str) -> Any:
    """``gent logs ARGUMENTS --json``, read."""
    code, out, err = gent(capsys, "logs", *arguments, "--json")
    assert code == 0, err
    return json.loads(out)
