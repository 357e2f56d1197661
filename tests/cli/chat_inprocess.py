"""``gent chat`` in the test's own process, on the ``recall`` model (:mod:`tests.cli.chat_plugin`),
with its turns piped in: shared by the core's chat tests and gent-history's."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from gent_core.testing import PluginSandbox, run_cli


def use_recall_model(installed: PluginSandbox, work: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Register the recall model in ``installed``, give the run history an empty home under
    ``work``, make ``work`` the current directory and write ``agent.yaml`` on the model there
    (returned)."""
    from tests.cli import chat_plugin

    installed.register(chat_plugin, "recall")
    monkeypatch.setenv("GENT_HOME", str(work / "home"))
    monkeypatch.chdir(work)
    agent = work / "agent.yaml"
    agent.write_text(
        json.dumps({"model": "recall", "format": "xml", "toolchain": "json", "tools": []})
    )
    return agent


def gent_piped(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *arguments: str,
    stdin: str = "",
) -> tuple[int, str, str]:
    """Run the command line in this process with ``stdin`` piped in: its exit code, standard
    output and standard error."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = run_cli(list(arguments))
    captured = capsys.readouterr()
    return code, captured.out, captured.err
