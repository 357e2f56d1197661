"""Fixtures of the run-history tests: those of the command-line history tests
(``tests/cli/test_cli_logs.py``: an empty ``GENT_HOME``, the history spy plugin, and running
``gent`` in-process), and an agent that is interrupted at its second step."""

from __future__ import annotations

from pathlib import Path

from tests.cli.conftest import installed
from tests.cli.test_cli_logs import CALL, config, gent, home, logs_json, spy

__all__ = ["CALL", "config", "gent", "halting", "home", "installed", "logs_json", "spy"]


def halting(path: Path, tool: str) -> str:
    """Write the config of an agent that calls the calculator, then ``tool`` (``ctrl_c``:
    Ctrl-C, the run is cancelled; ``crash``: the process ends as if killed); its path.
    """
    action = f'<action>{{"tool": "{tool}", "args": {{}}}}</action>'
    return config(path, CALL, action, tools=["calculator", tool])
