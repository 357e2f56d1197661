"""Helpers of the run-history tests: an agent config on the scripted model, ``gent`` run in
this process, ``gent logs --json`` read back, and an agent interrupted at its second step."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from gent_core.testing import run_cli

CALL = (
    '<thinking>use it</thinking><action>{"tool": "calculator", "args": {"expression": "17*23"}}'
    "</action>"
)


def config(path: Path, *outputs: str, tools: Sequence[str] = ("calculator",)) -> str:
    """Write an agent config on the scripted model; return its path."""
    path.write_text(
        json.dumps({"model": {"name": "scripted", "outputs": list(outputs)}, "tools": list(tools)})
    )
    return str(path)


def gent(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    """Run ``gent ARGUMENTS`` in this process: the exit code, standard output and error."""
    code = run_cli(list(arguments))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def logs_json(capsys: pytest.CaptureFixture[str], *arguments: str) -> Any:
    """``gent logs ARGUMENTS --json``, read."""
    code, out, err = gent(capsys, "logs", *arguments, "--json")
    assert code == 0, err
    return json.loads(out)


def halting(path: Path, tool: str) -> str:
    """Write the config of an agent that calls the calculator, then ``tool`` (``ctrl_c``:
    Ctrl-C, the run is cancelled; ``crash``: the process ends as if killed); its path.
    """
    action = f'<action>{{"tool": "{tool}", "args": {{}}}}</action>'
    return config(path, CALL, action, tools=["calculator", tool])
