"""Servers that fail: crash mid-call, never start, hang at startup; runs that are cancelled or
interrupted. Each gives a clear error, the agent goes on or stops cleanly, and no server
process is left running (checked after every test by conftest.py, and by PID here)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mcp_helpers import (
    PYTHON,
    SERVERS,
    TOOLBOX,
    action,
    agent_config,
    agent_from,
    pid_alive,
    run_and_close,
    toolbox_entry,
)

from gent_core import RunResult
from gent_core.errors import ToolsetError
from gent_core.testing import PluginSandbox, ScriptedModel

pytestmark = pytest.mark.slow


def config(*outputs: str, tools: str) -> str:
    return agent_config(*outputs, tools=["calculator", tools])


def test_a_server_that_crashes_mid_call_is_a_tool_error_and_the_agent_continues(
    sandbox: PluginSandbox,
) -> None:
    agent = agent_from(
        sandbox,
        config(
            action("crash"),
            action("echo", '{"text": "again"}'),
            action("calculator", '{"expression": "6 * 7"}'),
            "<answer>42</answer>",
            tools=toolbox_entry(),
        ),
    )

    async def scenario() -> RunResult:
        try:
            return await agent.run("crash it, then compute")
        finally:
            await agent.aclose()

    result = asyncio.run(scenario())
    assert result.ok and result.answer == "42"
    crashed, gone, computed = (step.calls[0] for step in result.steps[:3])
    assert crashed.status == "error"
    assert crashed.error == (
        "Tool 'crash' failed: the MCP server 'toolbox' that provides it stopped while running "
        "this call. Its tools are unavailable for the rest of the run; do not call them again."
    )
    assert gone.status == "error"
    assert gone.error == (
        "Tool 'echo' is unavailable: its MCP server 'toolbox' is no longer running (it stopped "
        "during a call to 'crash'). Do not call its tools again."
    )
    assert computed.output == 42


def test_the_person_sees_the_crashed_servers_last_error_output(sandbox: PluginSandbox) -> None:
    from gent_mcp.toolset import MCPToolset

    from gent_core.context import ExecutionContext

    toolset = MCPToolset(name="toolbox", command=[PYTHON, str(TOOLBOX)])

    async def scenario() -> str:
        try:
            tools = {tool.name: tool for tool in await toolset.open(Path.cwd())}
            result = await tools["crash"].call({}, ExecutionContext())
            return str(result.error)
        finally:
            await toolset.aclose()

    message = asyncio.run(scenario())
    assert "the MCP server toolbox (stdio: " in message
    assert "is gone: it stopped during a call to 'crash'" in message
    assert "toolbox: crashing on purpose" in message  # the server's stderr


def test_a_program_that_does_not_exist_is_a_clear_error_before_the_run(
    sandbox: PluginSandbox,
) -> None:
    agent = agent_from(
        sandbox,
        config(
            "<answer>never</answer>",
            tools="mcp: {name: ghost, command: [gent-no-such-mcp-server, --flag]}",
        ),
    )
    with pytest.raises(ToolsetError) as caught:
        asyncio.run(agent.run("anything"))
    message = str(caught.value)
    assert "the toolset mcp ghost (stdio: gent-no-such-mcp-server --flag) could not be opened" in (
        message
    )
    assert "the program 'gent-no-such-mcp-server' was not found on PATH" in message
    assert "line 9" in message and "'tools.1'" in message
    assert isinstance(agent.model, ScriptedModel)
    assert agent.model.remaining == 1  # the model was never called


def test_a_server_that_exits_at_once_shows_its_error_output(sandbox: PluginSandbox) -> None:
    script = "import sys; print('cannot find my database', file=sys.stderr); sys.exit(2)"
    agent = agent_from(
        sandbox,
        config(tools=f'mcp: {{name: broken, command: [{PYTHON}, -c, "{script}"]}}'),
    )
    with pytest.raises(ToolsetError) as caught:
        asyncio.run(agent.run("anything"))
    message = str(caught.value)
    assert "exited before it answered (is it an MCP server over stdio?)" in message
    assert "The server's last error output:\ncannot find my database" in message


def test_a_tool_list_that_is_not_valid_mcp_is_a_clear_error_without_pydantic_links(
    sandbox: PluginSandbox,
) -> None:
    server = SERVERS / "bad_list_server.py"
    agent = agent_from(sandbox, config(tools=f"mcp: {{name: odd, command: [{PYTHON}, {server}]}}"))
    with pytest.raises(ToolsetError) as caught:
        asyncio.run(agent.run("anything"))
    message = str(caught.value)
    assert (
        "answered with a result that is not valid MCP (while starting and listing its tools)"
        in (message)
    )
    assert "4 problems validating ListToolsResult: tools.0.inputSchema: Field required" in message
    assert "tools.0.name: Input should be a valid string" in message
    assert "errors.pydantic.dev" not in message and "For further information" not in message


def test_a_call_result_that_is_not_valid_mcp_is_a_tool_error_without_pydantic_links(
    sandbox: PluginSandbox,
) -> None:
    server = SERVERS / "bad_list_server.py"
    agent = agent_from(
        sandbox,
        config(
            action("odd"),
            "<answer>done</answer>",
            tools=f"mcp: {{name: odd, command: [{PYTHON}, {server}, --bad-call]}}",
        ),
    )
    result = run_and_close(agent)
    assert result.ok
    (call,) = result.steps[0].calls
    assert call.status == "error"
    error = call.error or ""
    assert "ValidationError: " in error and "validating CallToolResult" in error
    assert "errors.pydantic.dev" not in error and "For further information" not in error


def test_a_server_that_never_answers_times_out_and_is_killed(
    sandbox: PluginSandbox, tmp_path: Path
) -> None:
    pid_file = tmp_path / "mute.pid"
    script = (
        f"import os, time; open({str(pid_file)!r} + '.tmp', 'w').write(str(os.getpid())); "
        f"os.replace({str(pid_file)!r} + '.tmp', {str(pid_file)!r}); time.sleep(3600)"
    )
    agent = agent_from(
        sandbox,
        config(
            tools=f'mcp: {{name: mute, command: [{PYTHON}, -c, "{script}"], startup_timeout: 1}}'
        ),
    )

    async def scenario() -> None:
        # A guard against a hang, not a speed check: the server sleeps for an hour.
        await asyncio.wait_for(agent.run("anything"), timeout=120)

    with pytest.raises(ToolsetError) as caught:
        asyncio.run(scenario())
    assert "did not start and list its tools within 1 s (option startup_timeout)" in str(
        caught.value
    )
    assert not pid_alive(int(pid_file.read_text()))  # killed before the error was raised


def test_a_missing_working_directory_is_named(sandbox: PluginSandbox, tmp_path: Path) -> None:
    agent = agent_from(sandbox, config(tools=toolbox_entry(cwd=str(tmp_path / "nowhere"))))
    with pytest.raises(ToolsetError) as caught:
        asyncio.run(agent.run("anything"))
    assert f"its working directory {tmp_path / 'nowhere'} does not exist" in str(caught.value)


def test_cancelling_a_run_during_a_call_stops_the_server(
    sandbox: PluginSandbox, tmp_path: Path
) -> None:
    pid_file = tmp_path / "server.pid"
    agent = agent_from(
        sandbox,
        config(
            action("sleep", '{"seconds": 3600}'),
            "<answer>never</answer>",
            tools=f"mcp: {{name: toolbox, command: [{PYTHON}, {TOOLBOX}, --pid-file, {pid_file}]}}",
        ),
    )

    sleeping = pid_file.with_name(pid_file.name + ".sleeping")

    async def scenario() -> None:
        task = asyncio.create_task(agent.run("sleep"))

        async def call_started() -> None:
            while not sleeping.exists():  # the server writes it when the call starts
                assert not task.done(), "the run ended before the call started"
                await asyncio.sleep(0.05)

        await asyncio.wait_for(call_started(), 120)  # a guard against a hang
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        finally:
            await agent.aclose()

    asyncio.run(scenario())
    assert not pid_alive(int(pid_file.read_text()))


def test_ctrl_c_during_gent_run_stops_the_server(tmp_path: Path) -> None:
    """The real command line: SIGINT while a tool of an MCP server runs."""
    pid_file = tmp_path / "server.pid"
    config_file = tmp_path / "agent.yaml"
    config_file.write_text(
        config(
            action("sleep", '{"seconds": 3600}'),
            "<answer>never</answer>",
            tools=f"mcp: {{name: toolbox, command: [{PYTHON}, {TOOLBOX}, --pid-file, {pid_file}]}}",
        )
    )
    environment = {key: value for key, value in os.environ.items() if not key.startswith("GENT_")}
    process = subprocess.Popen(
        [sys.executable, "-m", "gent_core", "run", str(config_file), "sleep", "--no-color"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    sleeping = pid_file.with_name(pid_file.name + ".sleeping")
    try:
        deadline = time.monotonic() + 60  # a guard against a hang, not a speed check
        while not sleeping.exists() and time.monotonic() < deadline:
            assert process.poll() is None, "gent run ended before the call started"
            time.sleep(0.05)
        assert sleeping.exists(), "the call never started"  # written by the server's tool
        server = int(pid_file.read_text())
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, stderr
    assert "interrupted" in stderr
    assert "Traceback" not in stderr
    deadline = time.monotonic() + 60  # a guard: gent waited for its server before exiting
    while pid_alive(server) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not pid_alive(server), "the MCP server outlived gent run"


def test_ctrl_c_while_a_server_starts_is_an_interruption_not_a_config_error(
    tmp_path: Path,
) -> None:
    """The real command line: SIGINT while an MCP server sleeps instead of answering
    initialize (an hour, far past any timeout of the test) exits with 130, not 2."""
    pid_file = tmp_path / "mute.pid"
    script = (
        f"import os, time; open({str(pid_file)!r} + '.tmp', 'w').write(str(os.getpid())); "
        f"os.replace({str(pid_file)!r} + '.tmp', {str(pid_file)!r}); time.sleep(3600)"
    )
    config_file = tmp_path / "agent.yaml"
    entry = f'{{name: mute, command: [{PYTHON}, -c, "{script}"], startup_timeout: 3600}}'
    config_file.write_text(config("<answer>never</answer>", tools=f"mcp: {entry}"))
    environment = {key: value for key, value in os.environ.items() if not key.startswith("GENT_")}
    process = subprocess.Popen(
        [sys.executable, "-m", "gent_core", "run", str(config_file), "anything", "--no-color"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    try:
        deadline = time.monotonic() + 60
        while not pid_file.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert pid_file.exists(), "the server never started"
        server = int(pid_file.read_text())
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, stderr
    assert stderr.strip() == "gent run: interrupted"
    deadline = time.monotonic() + 5
    while pid_alive(server) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not pid_alive(server), "the MCP server outlived gent run"


def test_cancelling_a_run_while_a_server_starts_is_a_cancellation(
    sandbox: PluginSandbox, tmp_path: Path
) -> None:
    """Agent.run cancelled while a server sleeps through initialize: the run ends cancelled
    (not with a ToolsetError blaming the server), and the server is stopped."""
    pid_file = tmp_path / "mute.pid"
    script = (
        f"import os, time; open({str(pid_file)!r} + '.tmp', 'w').write(str(os.getpid())); "
        f"os.replace({str(pid_file)!r} + '.tmp', {str(pid_file)!r}); time.sleep(3600)"
    )
    entry = f'{{name: mute, command: [{PYTHON}, -c, "{script}"], startup_timeout: 3600}}'
    agent = agent_from(sandbox, config("<answer>never</answer>", tools=f"mcp: {entry}"))

    async def scenario() -> None:
        run = asyncio.create_task(agent.run("anything"))
        while not pid_file.exists():
            await asyncio.sleep(0.05)
        run.cancel()
        # A guard against a hang, not a speed check: the server sleeps for an hour.
        await asyncio.wait_for(run, timeout=120)

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(scenario())
    assert not pid_alive(int(pid_file.read_text()))


def test_a_server_writing_a_line_without_end_is_cut_off_at_max_line_chars(
    sandbox: PluginSandbox,
) -> None:
    agent = agent_from(
        sandbox,
        agent_config(
            action("echo", '{"text": "ok", "times": 20000}'),  # 59,999 characters: fits
            action("flood"),
            action("echo", '{"text": "again"}'),
            action("calculator", '{"expression": "6 * 7"}'),
            "<answer>42</answer>",
            tools=[toolbox_entry(max_line_chars=200_000), "calculator"],
        ),
    )
    result = run_and_close(agent, "flood it, then compute")
    assert result.ok and result.answer == "42"
    fits, flooded, gone, computed = (step.calls[0] for step in result.steps[:4])
    assert fits.status == "success" and len(fits.output["result"]) == 59_999
    assert flooded.status == "error"
    assert (flooded.error or "").startswith("Tool 'flood' failed: the MCP server 'toolbox'")
    assert gone.error == (
        "Tool 'echo' is unavailable: its MCP server 'toolbox' is no longer running (it wrote a "
        "line of more than 200,000 characters (the max_line_chars option), so its connection "
        "was closed). Do not call its tools again."
    )
    assert computed.output == 42
