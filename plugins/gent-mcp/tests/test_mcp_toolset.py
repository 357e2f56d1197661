"""The ``mcp`` toolset against a real MCP server (tests/servers/toolbox_server.py, the SDK's
MCPServer over stdio): tools and schemas, every kind of content, errors, timeouts, filters,
write hints, names, and the lifecycle across tasks."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest
from gent_mcp.tool import MCPTool
from gent_mcp.toolset import MCPToolset
from mcp_helpers import (
    PYTHON,
    TOOLBOX,
    action,
    agent_config,
    agent_from,
    child_processes,
    run_and_close,
    toolbox_entry,
)

from gent_core import Agent, RunResult
from gent_core.context import ExecutionContext
from gent_core.errors import InvalidToolArgumentsError
from gent_core.testing import PluginSandbox

pytestmark = pytest.mark.slow


def config(*outputs: str, tools: str | None = None, extra: str = "") -> str:
    return agent_config(*outputs, tools=[tools or toolbox_entry()], extra=extra, images=True)


def run(agent: Agent) -> RunResult:
    return run_and_close(agent)


def test_the_servers_tools_are_offered_with_its_schemas(
    sandbox: PluginSandbox, caplog: pytest.LogCaptureFixture
) -> None:
    """Every tool is offered under the server's own name (dots included); a name gent cannot
    hold is adapted, and a warning names both (never silently)."""
    toolset = MCPToolset(name="toolbox", command=[PYTHON, str(TOOLBOX)])

    async def scenario() -> dict[str, Any]:
        try:
            tools = await toolset.open(Path.cwd())
            return {tool.name: tool for tool in tools}
        finally:
            await toolset.aclose()

    tools = asyncio.run(scenario())
    assert set(tools) == {
        "echo",
        "crash",
        "flood",
        "sleep",
        "fail",
        "refuse",
        "picture",
        "documents",
        "weather",
        "delete",
        "dotted.name",
        "files_read_all",
    }
    echo = tools["echo"]
    assert echo.description == "Repeat the text."
    assert echo.parameters == {
        "type": "object",
        "properties": {"text": {"type": "string"}, "times": {"type": "integer", "default": 1}},
        "required": ["text"],
    }
    assert isinstance(tools["dotted.name"], MCPTool)
    assert tools["dotted.name"].remote_name == "dotted.name"
    assert tools["files_read_all"].remote_name == "files/read all"
    renamed = [
        record.getMessage() for record in caplog.records if "is offered as" in record.getMessage()
    ]
    assert renamed == [
        "MCP server 'toolbox': the tool 'files/read all' is offered as 'files_read_all' (gent "
        "tool names are 1-64 letters, digits, '_', '-' and '.', starting with a letter or '_')"
    ]
    assert tools["delete"].writes and not echo.writes


def test_arguments_are_validated_and_coerced_before_anything_is_sent(
    sandbox: PluginSandbox,
) -> None:
    toolset = MCPToolset(name="toolbox", command=[PYTHON, str(TOOLBOX)])

    async def scenario() -> tuple[dict[str, Any], str]:
        try:
            tools = {tool.name: tool for tool in await toolset.open(Path.cwd())}
            echo = tools["echo"]
            coerced = echo.validate_arguments({"text": "a", "times": "2"})
            with pytest.raises(InvalidToolArgumentsError, match="times"):
                echo.validate_arguments({"times": "x"})
            result = await echo.call(coerced, ExecutionContext())
            return coerced, str(result.output)
        finally:
            await toolset.aclose()

    coerced, output = asyncio.run(scenario())
    assert coerced == {"text": "a", "times": 2}
    assert output == "{'result': 'a a'}"


def test_an_agent_calls_tools_and_reads_every_kind_of_content(sandbox: PluginSandbox) -> None:
    agent = agent_from(
        sandbox,
        config(
            action("echo", '{"text": "hi", "times": 2}'),
            action("picture"),
            action("documents", '{"long_chars": 5000}'),
            action("weather", '{"city": "Paris"}'),
            "<answer>done</answer>",
        ),
    )
    result = run(agent)
    assert result.ok and result.answer == "done"
    echo, picture, documents, weather = (step.calls[0] for step in result.steps[:4])
    assert echo.output == {"result": "hi hi"}  # structuredContent is the raw output
    assert picture.output == "a pixel:"
    assert len(result.steps[1].followup_media) == 1
    assert result.steps[1].followup_media[0]["media_type"] == "image/png"
    text = documents.output
    assert text.startswith("here they are")
    assert "[resource file:///notes/short.txt]\nshort note" in text
    assert "[resource file:///notes/long.txt (5000 characters) added to the clipboard]" in text
    assert (
        "[binary resource file:///data.bin (application/octet-stream, 30 bytes) not shown]" in text
    )
    assert "[resource link: manual — https://example.invalid/manual.pdf (application/pdf)]" in text
    assert "audio (audio/wav" in text
    assert any("x" * 5000 in entry.get("text", "") for entry in result.steps[2].clipboard)
    assert weather.output == {"city": "Paris", "celsius": 21.5}


def test_tool_errors_and_refused_calls_are_error_results(sandbox: PluginSandbox) -> None:
    agent = agent_from(
        sandbox,
        config(
            action("fail", '{"message": "no such city"}'),
            action("echo", '{"times": 2}'),
            "<answer>done</answer>",
            # the invalid call reaches the model as an error, not as a repair request
            extra="limits: {max_repairs: 0}\n",
        ),
    )
    result = run(agent)
    assert result.ok
    failed = result.steps[0].calls[0]
    assert failed.status == "error"
    assert "no such city" in (failed.error or "")
    invalid = result.steps[1].calls[0]
    assert invalid.status == "error"
    assert "Invalid arguments for tool 'echo'" in (invalid.error or "")


def test_a_protocol_error_from_the_server_is_an_error_result(sandbox: PluginSandbox) -> None:
    result = run(
        agent_from(
            sandbox,
            config(action("refuse", '{"message": "not today"}'), "<answer>done</answer>"),
        )
    )
    refused = result.steps[0].calls[0]
    assert refused.status == "error"
    assert refused.error == "Tool 'refuse' failed: not today"


def test_a_call_that_exceeds_call_timeout_is_a_timeout_and_the_server_keeps_working(
    sandbox: PluginSandbox,
) -> None:
    agent = agent_from(
        sandbox,
        config(
            action("sleep", '{"seconds": 30}'),
            action("echo", '{"text": "still here"}'),
            "<answer>done</answer>",
            tools=toolbox_entry(call_timeout=0.5),
        ),
    )
    result = run(agent)
    slept = result.steps[0].calls[0]
    assert slept.status == "error"
    assert "did not finish within 0.5 s" in (slept.error or "")
    assert result.steps[1].calls[0].output == {"result": "still here"}


def test_include_and_exclude_filter_the_tools(sandbox: PluginSandbox) -> None:
    toolset = MCPToolset(
        name="toolbox", command=[PYTHON, str(TOOLBOX)], include=["e*", "weather"], exclude=["echo"]
    )

    async def scenario() -> list[str]:
        try:
            return [tool.name for tool in await toolset.open(Path.cwd())]
        finally:
            await toolset.aclose()

    assert asyncio.run(scenario()) == ["weather"]
    assert toolset.skipped["echo"] == "excluded (option exclude)"
    assert toolset.skipped["crash"] == "not included (option include)"


def test_a_filter_matching_no_tool_is_an_error_listing_the_tools(sandbox: PluginSandbox) -> None:
    from gent_core.errors import ToolsetError

    agent = agent_from(sandbox, config(tools=toolbox_entry(exclude="[ecco]")))
    with pytest.raises(ToolsetError) as caught:
        run(agent)
    message = str(caught.value)
    assert "offers no tool matching exclude 'ecco'" in message
    assert "it offers: echo, crash" in message
    assert caught.value.location.line == 9


def test_writing_tools_need_allow_writes(
    sandbox: PluginSandbox, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        result = run(
            agent_from(
                sandbox,
                config(
                    action("delete", '{"path": "a"}'),
                    "<answer>done</answer>",
                    extra="limits: {max_repairs: 0}\n",  # the refusal itself, not a repair
                ),
            )
        )
    assert "Unknown tool 'delete'" in (result.steps[0].calls[0].error or "")
    assert any("(delete)" in record.getMessage() for record in caplog.records)
    allowed = run(
        agent_from(
            sandbox,
            config(
                action("delete", '{"path": "a"}'),
                "<answer>done</answer>",
                extra="allow_writes: true\n",
            ),
        )
    )
    assert allowed.steps[0].calls[0].output == {"result": "deleted a"}


def test_writes_all_marks_every_tool_as_writing(sandbox: PluginSandbox) -> None:
    agent = agent_from(sandbox, config(tools=toolbox_entry(writes="all")))

    async def scenario() -> list[str]:
        async with agent:
            assert agent.toolchain is not None
            return [tool.name for tool in agent.toolchain.tools]

    assert asyncio.run(scenario()) == []
    assert "toolbox:echo" in agent.withheld_tools


def test_colliding_names_are_namespaced_by_server(sandbox: PluginSandbox) -> None:
    agent = agent_from(
        sandbox,
        config(
            action("second:echo", '{"text": "from the second"}'),
            "<answer>done</answer>",
            tools=f"{toolbox_entry('first')}\n  - {toolbox_entry('second')}",
        ),
    )
    result = run(agent)
    assert result.steps[0].calls[0].output == {"result": "from the second"}


def test_open_and_close_in_different_tasks_and_close_twice(sandbox: PluginSandbox) -> None:
    toolset = MCPToolset(name="toolbox", command=[PYTHON, str(TOOLBOX)])
    # Count only this test's processes: an earlier test of the same session (in another
    # package) may still be removing one of its own.
    before = {process.pid for process in child_processes()}

    def new_children() -> list[str]:
        return [p.command for p in child_processes() if p.pid not in before]

    async def scenario() -> tuple[int, int, list[str], str]:
        tools = await asyncio.create_task(toolset.open(Path.cwd()))
        running = len(new_children())
        again = await toolset.open(Path.cwd())  # already open: the same tools
        [echo] = [tool for tool in again if tool.name == "echo"]
        output = await asyncio.create_task(echo.call({"text": "x"}, ExecutionContext()))
        await asyncio.create_task(toolset.aclose())
        await toolset.aclose()
        after = await echo.call({"text": "x"}, ExecutionContext())
        return (
            running,
            len(tools),
            new_children(),
            str(after.error.model_message if after.error else output),
        )

    running, count, left, message = asyncio.run(scenario())
    assert running == 1 and count == 12  # every tool of the toolbox server
    assert left == []
    assert "its MCP server 'toolbox' is no longer running (it was stopped)" in message


def test_closing_a_toolset_that_never_opened_does_nothing() -> None:
    asyncio.run(MCPToolset(name="x", command=["nothing"]).aclose())
