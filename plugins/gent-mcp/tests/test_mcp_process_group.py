"""Closing an agent ends its stdio MCP servers' whole process groups: a child a server started
is gone too, whether the server exited by itself or had to be killed (issue 17, item 6)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from mcp_helpers import PYTHON, SERVERS, action, agent_config, agent_from, pid_alive, run_and_close

from gent_core import Agent
from gent_core.testing import PluginSandbox

pytestmark = [pytest.mark.slow, pytest.mark.alone]  # signals and their timing: one at a time

FAMILY = SERVERS / "family_server.py"


def family_agent(sandbox: PluginSandbox, pid_file: Path, *flags: str) -> Agent:
    command = ", ".join([PYTHON, str(FAMILY), str(pid_file), *flags])
    entry = f"mcp: {{name: family, command: [{command}]}}"
    return agent_from(sandbox, agent_config(action("ping"), "<answer>pong</answer>", tools=[entry]))


def gone_soon(pid: int, seconds: float = 10.0) -> bool:
    """Whether ``pid`` is gone (or a zombie), allowing the kernel a moment to remove it."""
    deadline = time.monotonic() + seconds
    while pid_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not pid_alive(pid)


def test_a_child_of_a_server_that_exits_normally_is_ended(
    sandbox: PluginSandbox, tmp_path: Path
) -> None:
    pid_file = tmp_path / "child.pid"
    agent = family_agent(sandbox, pid_file)

    result = run_and_close(agent)

    assert result.answer == "pong"
    assert result.steps[0].calls[0].output == {"result": "pong"}
    child = int(pid_file.read_text())
    assert gone_soon(child), "the server's child process outlived the agent"


@pytest.mark.parametrize(
    "flags", [("--child-ignores-term",), ("--child-ignores-term", "--server-ignores-term")]
)
def test_processes_that_ignore_sigterm_are_killed(
    sandbox: PluginSandbox, tmp_path: Path, flags: tuple[str, ...]
) -> None:
    pid_file = tmp_path / "child.pid"
    agent = family_agent(sandbox, pid_file, *flags)

    result = run_and_close(agent)

    assert result.answer == "pong"
    child = int(pid_file.read_text())
    assert gone_soon(child), "a child ignoring SIGTERM outlived the agent"
