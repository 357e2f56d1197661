"""``gent mcp-serve``: gent tools served as an MCP server, checked with the MCP SDK's own
client — in process, over stdio (``gent mcp-serve CONFIG``) and over streamable HTTP."""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from gent_mcp.serve import build_server
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp_helpers import PYTHON, TOOLBOX, action, agent_config, agent_from, run_and_close

from gent_core import Agent, hookimpl
from gent_core.messages import ImagePart
from gent_core.testing import PluginSandbox
from gent_core.tools import ToolResult, tool

pytestmark = pytest.mark.slow

PIXEL = b"\x89PNG\r\n\x1a\nnot really"


@tool
def snapshot(label: str) -> ToolResult:
    """Take a picture and put a note aside."""
    return ToolResult(
        output={"label": label, "pixels": 1},
        media=[ImagePart(PIXEL, "image/png")],
        clipboard_text=[f"note about {label}"],
    )


@tool
def slow_tool(seconds: float) -> str:
    """Sleep, then answer."""
    time.sleep(seconds)
    return "done"


class ServedTools:
    @hookimpl
    def gent_register_tools(self) -> Sequence[Any]:
        return [snapshot, slow_tool]


CONFIG = f"""model: {{name: scripted, outputs: []}}
format: xml
toolchain: json
timeouts: {{tool: 1}}
approval: {{deny: [current_time]}}
tools:
  - calculator
  - current_time
  - snapshot
  - slow_tool
  - mcp: {{name: toolbox, command: [{PYTHON}, {TOOLBOX}], include: [echo]}}
"""


def call_through(agent: Agent, calls: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
    """Open ``agent``, serve it in process, and make ``calls`` with the SDK's client."""

    async def scenario() -> dict[str, Any]:
        try:
            await agent.open()
            async with Client(build_server(agent)) as client:
                results: dict[str, Any] = {"tools": (await client.list_tools()).tools}
                for name, arguments in calls.items():
                    try:
                        results[name] = await client.call_tool(name.split("#")[0], arguments)
                    except MCPError as error:
                        results[name] = error
                return results
        finally:
            await agent.aclose()

    return asyncio.run(scenario())


@pytest.fixture
def served(sandbox: PluginSandbox) -> Agent:
    sandbox.register(ServedTools(), "served")
    return agent_from(sandbox, CONFIG)


def test_every_tool_is_listed_with_its_schema_including_toolset_tools(served: Agent) -> None:
    tools = {info.name: info for info in call_through(served, {})["tools"]}
    assert list(tools) == ["calculator", "current_time", "snapshot", "slow_tool", "echo"]
    assert served.toolchain is not None
    calculator = served.toolchain.get_tool("calculator")
    assert calculator is not None
    assert tools["calculator"].input_schema == calculator.parameters
    assert tools["calculator"].description == calculator.description
    assert tools["calculator"].annotations == types.ToolAnnotations(
        read_only_hint=True, destructive_hint=False
    )
    assert tools["echo"].description == "Repeat the text."


def test_calls_run_through_the_execution_engine(served: Agent) -> None:
    results = call_through(
        served,
        {
            "calculator": {"expression": "17 * 23"},
            "calculator#bad": {"expression": "1/0"},
            "calculator#invalid": {},
            "current_time": {},
            "slow_tool": {"seconds": 5},
            "echo": {"text": "via gent"},
            "nope": {},
        },
    )
    assert results["calculator"].content == [types.TextContent(text="391")]
    assert not results["calculator"].is_error
    bad = results["calculator#bad"]
    assert bad.is_error and "division by zero" in bad.content[0].text
    invalid = results["calculator#invalid"]
    assert invalid.is_error
    assert invalid.content[0].text.startswith(
        "Invalid arguments for tool 'calculator': Missing required argument 'expression'"
    )
    denied = results["current_time"]  # the config's approval policy applies
    assert denied.is_error and "is not allowed in this run" in denied.content[0].text
    timed_out = results["slow_tool"]  # the config's tool timeout applies
    assert timed_out.is_error and "did not finish within 1 s" in timed_out.content[0].text
    proxied = results["echo"]  # a toolset's tool, served again
    assert proxied.structured_content == {"result": "via gent"}
    unknown = results["nope"]
    assert isinstance(unknown, MCPError)
    assert unknown.code == types.INVALID_PARAMS
    assert "Unknown tool: nope" in unknown.message


def test_media_and_clipboard_become_mcp_content(served: Agent) -> None:
    result = call_through(served, {"snapshot": {"label": "cat"}})["snapshot"]
    assert result.structured_content == {"label": "cat", "pixels": 1}
    text, image, note = result.content
    assert text == types.TextContent(text='{"label": "cat", "pixels": 1}')
    assert image == types.ImageContent(data=base64.b64encode(PIXEL).decode(), mime_type="image/png")
    assert isinstance(note, types.EmbeddedResource)
    assert isinstance(note.resource, types.TextResourceContents)
    assert note.resource.text == "note about cat"


def gent_environment() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if not key.startswith("GENT_")}


def test_gent_mcp_serve_over_stdio(tmp_path: Path) -> None:
    """The real command, started by the SDK's stdio client (installed plugins only)."""
    config = tmp_path / "agent.yaml"
    config.write_text(
        "model: {name: scripted, outputs: []}\nformat: xml\ntoolchain: json\n"
        "tools: [calculator, {mcp: {name: time, command: [python, -m, mcp_server_time]}}]\n"
    )
    parameters = StdioServerParameters(
        command=sys.executable,
        args=["-m", "gent_core", "mcp-serve", str(config)],
        env=gent_environment(),
    )

    async def scenario() -> tuple[list[str], types.CallToolResult, types.CallToolResult]:
        with (tmp_path / "stderr.txt").open("w") as errors:
            async with Client(stdio_client(parameters, errlog=errors)) as client:
                names = [info.name for info in (await client.list_tools()).tools]
                computed = await client.call_tool("calculator", {"expression": "2 ** 10"})
                time_now = await client.call_tool("get_current_time", {"timezone": "UTC"})
                return names, computed, time_now

    names, computed, time_now = asyncio.run(scenario())
    assert names == ["calculator", "get_current_time", "convert_time"]
    assert computed.content == [types.TextContent(text="1024")]
    assert isinstance(time_now.structured_content, dict)
    assert time_now.structured_content["timezone"] == "UTC"


@pytest.mark.parametrize(
    "config_text",
    ["tools: [calculator]\n", "format: markdown\ntoolchain: yaml\ntools: [calculator]\n"],
    ids=["tools alone", "tools and a format"],
)
def test_gent_mcp_serve_needs_no_model(tmp_path: Path, config_text: str) -> None:
    """A config of tools alone is served (the model would never be called)."""
    config = tmp_path / "tools.yaml"
    config.write_text(config_text)
    parameters = StdioServerParameters(
        command=sys.executable,
        args=["-m", "gent_core", "mcp-serve", str(config)],
        env=gent_environment(),
    )

    async def scenario() -> tuple[list[str], types.CallToolResult]:
        with (tmp_path / "stderr.txt").open("w") as errors:
            async with Client(stdio_client(parameters, errlog=errors)) as client:
                names = [info.name for info in (await client.list_tools()).tools]
                return names, await client.call_tool("calculator", {"expression": "6 * 7"})

    names, computed = asyncio.run(scenario())
    assert names == ["calculator"]
    assert computed.content == [types.TextContent(text="42")]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``gent mcp-serve`` over streamable HTTP serving the calculator; yields its URL."""
    config = tmp_path / "served.yaml"
    config.write_text(
        "model: {name: scripted, outputs: []}\nformat: xml\ntoolchain: json\ntools: [calculator]\n"
    )
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gent_core",
            "mcp-serve",
            str(config),
            "--http",
            f"127.0.0.1:{port}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=gent_environment(),
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp", process
    finally:
        process.terminate()
        process.communicate(timeout=30)


def test_gent_mcp_serve_over_streamable_http(
    http_server: tuple[str, subprocess.Popen[str]],
) -> None:
    url, process = http_server

    async def scenario() -> types.CallToolResult:
        async with Client(url) as client:
            return await client.call_tool("calculator", {"expression": "6 * 7"})

    result = asyncio.run(scenario())
    assert result.content == [types.TextContent(text="42")]
    process.terminate()
    _, stderr = process.communicate(timeout=30)
    assert f"serving 1 tool(s) at {url}" in stderr


def test_an_agent_uses_a_server_over_streamable_http(
    sandbox: PluginSandbox, http_server: tuple[str, subprocess.Popen[str]]
) -> None:
    """Both directions over HTTP: an agent's mcp toolset (url, with headers) reaches the
    calculator that gent mcp-serve serves."""
    url, _ = http_server
    entry = f'mcp: {{name: remote, url: "{url}", headers: {{X-Client: gent-tests}}}}'
    agent = agent_from(
        sandbox,
        agent_config(
            action("calculator", '{"expression": "6 * 7"}'), "<answer>42</answer>", tools=[entry]
        ),
    )
    result = run_and_close(agent)
    assert result.ok and result.answer == "42"
    assert result.steps[0].calls[0].output == "42"  # a number is served as text


def test_a_bad_config_is_a_clear_error(tmp_path: Path) -> None:
    config = tmp_path / "agent.yaml"
    config.write_text("model: {name: scripted, outputs: []}\ntools: [no_such_tool]\n")
    process = subprocess.run(
        [sys.executable, "-m", "gent_core", "mcp-serve", str(config)],
        capture_output=True,
        text=True,
        env=gent_environment(),
        timeout=60,
    )
    assert process.returncode == 2
    assert "gent mcp-serve: error:" in process.stderr
    assert "no_such_tool" in process.stderr
