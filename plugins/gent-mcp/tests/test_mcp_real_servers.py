"""Agents with a scripted model calling real MCP servers installed from PyPI (the test extra):
``mcp-server-time`` and ``mcp-server-git`` on a temporary git repository."""

from __future__ import annotations

import datetime
import logging
from pathlib import Path

import pytest
from mcp_helpers import action, agent_config, agent_from, run_and_close

from gent_core import Agent, RunResult
from gent_core.testing import PluginSandbox

pytestmark = pytest.mark.slow


def config(*outputs: str, tools: str, extra: str = "") -> str:
    return agent_config(*outputs, tools=[tools], extra=extra)


def run(agent: Agent, task: str) -> RunResult:
    return run_and_close(agent, task)


def test_mcp_server_time_answers_through_an_agent(sandbox: PluginSandbox) -> None:
    agent = agent_from(
        sandbox,
        config(
            action("get_current_time", '{"timezone": "Asia/Tokyo"}'),
            action("get_current_time", '{"timezone": "Mars/Olympus"}'),
            "<answer>It is morning in Tokyo.</answer>",
            tools="mcp: {name: time, command: [python, -m, mcp_server_time]}",
        ),
    )
    result = run(agent, "What time is it in Tokyo?")
    assert result.ok and result.answer == "It is morning in Tokyo."
    tokyo = result.steps[0].calls[0]
    assert tokyo.status == "success"
    assert tokyo.output["timezone"] == "Asia/Tokyo"
    stamp = datetime.datetime.fromisoformat(tokyo.output["datetime"])
    assert stamp.utcoffset() == datetime.timedelta(hours=9)
    observation = result.steps[0].followup
    assert '"timezone": "Asia/Tokyo"' in observation  # the model read the structured output
    bad = result.steps[1].calls[0]
    assert bad.status == "error"
    assert "Mars/Olympus" in (bad.error or "")
    prompt = agent.system_prompt()
    assert "get_current_time(timezone: string" in prompt
    assert "convert_time(" in prompt


def git_config(repository: Path, *outputs: str, extra: str = "") -> str:
    return config(
        *outputs,
        tools="mcp: {name: git, command: [python, -m, mcp_server_git, --repository, .]}",
        extra=f"working_directory: {repository}\n{extra}",
    )


def test_mcp_server_git_reads_a_temporary_repository(
    sandbox: PluginSandbox, git_repository: Path, caplog: pytest.LogCaptureFixture
) -> None:
    repo = f'"repo_path": "{git_repository}"'
    with caplog.at_level(logging.WARNING, logger="gent.agent"):
        agent = agent_from(
            sandbox,
            git_config(
                git_repository,
                action("git_status", f"{{{repo}}}"),
                action("git_log", f'{{{repo}, "max_count": 5}}'),
                action("git_diff_unstaged", f"{{{repo}}}"),
                action("git_commit", f'{{{repo}, "message": "sneaky"}}'),
                "<answer>Two commits; README.md is modified.</answer>",
                # the refused call reaches the model as an error, not as a repair request
                extra="limits: {max_repairs: 0}\n",
            ),
        )
        result = run(agent, "What is the state of the repository?")
    assert result.ok
    status, log, diff, commit = (step.calls[0] for step in result.steps[:4])
    assert status.status == "success"
    assert "modified:   README.md" in status.output
    assert "add the notes" in log.output and "first commit" in log.output
    assert "-hello\n+hello again" in diff.output
    # Writing tools are not offered without allow_writes; the agent said so.
    assert commit.status == "error"
    assert "Unknown tool 'git_commit'" in (commit.error or "")
    assert any(
        "not offered" in record.getMessage() and "git_commit" in record.getMessage()
        for record in caplog.records
    )
    assert {"git:git_commit", "git:git_add", "git:git_reset"} <= set(agent.withheld_tools)


def test_mcp_server_git_writes_when_the_config_allows_it(
    sandbox: PluginSandbox, git_repository: Path
) -> None:
    repo = f'"repo_path": "{git_repository}"'
    agent = agent_from(
        sandbox,
        git_config(
            git_repository,
            action("git_add", f'{{{repo}, "files": ["README.md"]}}'),
            action("git_commit", f'{{{repo}, "message": "update the readme"}}'),
            action("git_log", f'{{{repo}, "max_count": 1}}'),
            "<answer>Committed.</answer>",
            extra="allow_writes: true\n",
        ),
    )
    result = run(agent, "Commit the readme.")
    assert result.ok
    assert result.steps[1].calls[0].status == "success"
    assert "update the readme" in result.steps[2].calls[0].output


def test_an_error_of_mcp_server_git_reaches_the_model(
    sandbox: PluginSandbox, git_repository: Path, tmp_path: Path
) -> None:
    """mcp-server-git refuses (an ``isError`` result) a repository outside the one it serves."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    agent = agent_from(
        sandbox,
        git_config(
            git_repository,
            action("git_status", f'{{"repo_path": "{outside}"}}'),
            "<answer>Not allowed.</answer>",
        ),
    )
    result = run(agent, "status of elsewhere")
    refused = result.steps[0].calls[0]
    assert refused.status == "error"
    assert refused.error is not None and refused.error.startswith("Tool 'git_status' failed:")
    assert "outside" in refused.error


def test_gent_tools_and_gent_call_reach_the_tools_of_a_config(tmp_path: Path) -> None:
    """The command line with the installed plugins: an MCP server's tools are listed and
    called like any tool."""
    import json
    import os
    import subprocess
    import sys

    config = tmp_path / "agent.yaml"
    config.write_text(
        "model: {name: scripted, outputs: []}\nformat: xml\ntoolchain: json\n"
        "tools: [{mcp: {name: time, command: [python, -m, mcp_server_time]}}]\n"
    )
    environment = {key: value for key, value in os.environ.items() if not key.startswith("GENT_")}

    def gent(*arguments: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "gent_core", *arguments],
            capture_output=True,
            text=True,
            env=environment,
            timeout=120,
        )

    listed = gent("tools", "--config", str(config), "--json")
    assert listed.returncode == 0, listed.stderr
    by_name = {tool["name"]: tool for tool in json.loads(listed.stdout)}
    assert by_name["get_current_time"]["toolset"] == ("mcp time (stdio: python -m mcp_server_time)")
    assert by_name["get_current_time"]["parameters"]["required"] == ["timezone"]
    called = gent(
        "call", "--config", str(config), "get_current_time", "--arg", "timezone=UTC", "--json"
    )
    assert called.returncode == 0, called.stderr
    assert json.loads(called.stdout)["output"]["timezone"] == "UTC"
    failed = gent("call", "--config", str(config), "get_current_time", "--arg", "timezone=Nowhere")
    assert failed.returncode == 1
    assert "gent call: tool error: Tool 'get_current_time' failed:" in failed.stderr
