"""Toolsets: sources of several tools with a lifetime, configured as ``{<toolset>: {...}}``."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from gent_core import _builtin as core_plugin
from gent_core import hookimpl
from gent_core._agent import Agent
from gent_core._config import ConfigError, parse_config
from gent_core.context import ExecutionContext
from gent_core.errors import GentError, ToolsetError
from gent_core.testing import PluginSandbox, ScriptedModel
from gent_core.tools import RenamedTool, ToolResult, tool
from gent_core.tools.base import Tool
from gent_core.toolsets import Toolset


class EchoTool(Tool):
    """A tool that says which toolset served it."""

    def __init__(self, name: str, served_by: str) -> None:
        self.name = name
        self.description = f"echo from {served_by}"
        self.served_by = served_by

    @property
    def parameters(self) -> dict[str, Any]:
        return {"type": "object", "properties": {"text": {"type": "string"}}}

    def validate_arguments(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        return dict(arguments)

    async def call(self, arguments: Mapping[str, Any], context: ExecutionContext) -> ToolResult:
        return ToolResult(output=f"{self.served_by}: {arguments.get('text', '')}")


EVENTS: list[str] = []


class FakeServer(Toolset):
    """Opens to a fixed list of tools and records its lifecycle in ``EVENTS``."""

    def __init__(
        self,
        name: str = "",
        tools: Sequence[str] = ("echo",),
        fail: bool = False,
        fail_close: bool = False,
    ):
        self.name = name
        self.tool_names = list(tools)
        self.fail = fail
        self.fail_close = fail_close
        self.open_count = 0
        self.closed = False

    async def open(self, working_directory: Path) -> Sequence[Tool]:
        self.open_count += 1
        EVENTS.append(f"open {self.name}")
        if self.fail:
            raise GentError(f"server {self.name} exited with status 1 before answering")
        return [EchoTool(name, self.name) for name in self.tool_names]

    async def aclose(self) -> None:
        EVENTS.append(f"close {self.name}")
        if self.fail_close:
            raise OSError(f"server {self.name} did not stop")
        self.closed = True


class ServerPlugin:
    @hookimpl
    def gent_register_toolsets(self) -> Mapping[str, Callable[..., Toolset]]:
        return {"fakeserver": FakeServer}


@tool
def echo(text: str) -> str:
    """The built-in echo, which a toolset's tool of the same name must not replace."""
    return f"plain: {text}"


class PlainTools:
    @hookimpl
    def gent_register_tools(self) -> Sequence[Any]:
        return [echo]


@pytest.fixture
def sandbox(gent_plugins: PluginSandbox) -> PluginSandbox:
    EVENTS.clear()
    gent_plugins.register(core_plugin, "core")
    gent_plugins.register(ServerPlugin(), "servers")
    gent_plugins.register(PlainTools(), "plain")
    import gent_json.plugin
    import gent_xml.plugin

    gent_plugins.register(gent_xml.plugin, "xml")
    gent_plugins.register(gent_json.plugin, "json")
    return gent_plugins


def agent_from(sandbox: PluginSandbox, text: str) -> Agent:
    loaded = parse_config(text, source="agent.yaml", middleware_names=lambda: ())
    return Agent.from_config(loaded, registry=sandbox.registry(), plugin_manager=sandbox.manager)


SCRIPT = """model:
  name: scripted
  outputs:
    - '<action>{"tool": "git:echo", "args": {"text": "hi"}}</action>'
    - '<answer>done</answer>'
tools:
  - echo
  - fakeserver: {name: git, tools: [echo, status]}
"""


def test_a_toolset_entry_is_parsed_and_written_back_as_written() -> None:
    loaded = parse_config(SCRIPT, middleware_names=lambda: ())
    assert loaded.redacted_dict()["tools"] == [
        "echo",
        {"fakeserver": {"name": "git", "tools": ["echo", "status"]}},
    ]


def test_toolset_tools_join_the_chain_and_colliding_names_are_namespaced(
    sandbox: PluginSandbox,
) -> None:
    agent = agent_from(sandbox, SCRIPT)
    assert agent.toolchain is not None
    assert [tool.name for tool in agent.toolchain.tools] == ["echo"]  # not opened yet

    async def scenario() -> list[str]:
        async with agent:
            assert agent.toolchain is not None
            return [tool.name for tool in agent.toolchain.tools]

    names = asyncio.run(scenario())
    assert names == ["echo", "git:echo", "status"]
    renamed = agent.toolchain.get_tool("git:echo")
    assert isinstance(renamed, RenamedTool)
    assert EVENTS == ["open git", "close git"]


def test_a_run_calls_a_toolset_tool_then_closing_the_agent_stops_the_toolset(
    sandbox: PluginSandbox,
) -> None:
    agent = agent_from(sandbox, SCRIPT)

    async def scenario() -> Any:
        try:
            return await agent.run("say hi")
        finally:
            await agent.aclose()

    result = asyncio.run(scenario())
    assert result.ok
    assert result.steps[0].calls[0].output == "git: hi"
    assert EVENTS == ["open git", "close git"]
    asyncio.run(agent.aclose())  # idempotent
    assert EVENTS == ["open git", "close git"]


def test_reopening_replaces_the_tools_of_the_earlier_opening(sandbox: PluginSandbox) -> None:
    agent = agent_from(sandbox, SCRIPT)

    async def twice() -> list[str]:
        async with agent:
            pass
        async with agent:
            assert agent.toolchain is not None
            return [tool.name for tool in agent.toolchain.tools]

    assert asyncio.run(twice()) == ["echo", "git:echo", "status"]


def test_a_toolset_that_fails_to_open_is_an_error_naming_its_config_line_and_the_others_close(
    sandbox: PluginSandbox,
) -> None:
    agent = agent_from(
        sandbox,
        "model: {name: scripted, outputs: []}\ntools:\n  - fakeserver: {name: ok}\n"
        "  - fakeserver: {name: bad, fail: true}\n",
    )
    with pytest.raises(ToolsetError) as caught:
        asyncio.run(agent.run("anything"))
    message = str(caught.value)
    assert "bad" in message
    assert caught.value.location.line == 4
    assert "file agent.yaml, line 4, column 5, key 'tools.1'" in message
    assert "exited with status 1" in message
    assert EVENTS == ["open ok", "open bad", "close bad", "close ok"]


def test_closing_goes_on_past_a_toolset_that_fails_to_close_with_a_warning(
    sandbox: PluginSandbox, caplog: pytest.LogCaptureFixture
) -> None:
    agent = agent_from(
        sandbox,
        "model: {name: scripted, outputs: ['<answer>x</answer>']}\ntools:\n"
        "  - fakeserver: {name: first, tools: [a]}\n"
        "  - fakeserver: {name: stuck, tools: [b], fail_close: true}\n"
        "  - fakeserver: {name: last, tools: [c]}\n",
    )

    async def scenario() -> list[str]:
        await agent.open()
        assert agent.toolchain is not None
        names = [tool.name for tool in agent.toolchain.tools]
        await agent.aclose()
        return names

    with caplog.at_level("WARNING", logger="gent.agent"):
        assert asyncio.run(scenario()) == ["a", "b", "c"]
    assert EVENTS[:3] == ["open first", "open stuck", "open last"]
    assert EVENTS[3:] == ["close last", "close stuck", "close first"]
    warnings = [record.getMessage() for record in caplog.records]
    assert len(warnings) == 1
    assert "closing toolset" in warnings[0]
    assert "OSError: server stuck did not stop" in warnings[0]
    EVENTS.clear()
    asyncio.run(agent.aclose())  # closed already: nothing is closed twice
    assert EVENTS == []


def test_a_toolset_option_error_points_at_the_option(sandbox: PluginSandbox) -> None:
    with pytest.raises(ConfigError) as caught:
        agent_from(
            sandbox,
            "model: {name: scripted, outputs: []}\ntools:\n  - fakeserver: {name: x, tool: [a]}\n",
        )
    assert "line 3" in str(caught.value)
    assert "tools.0.fakeserver.tool" in str(caught.value)
    assert "'tools'" in str(caught.value)  # the accepted option is listed


def test_an_unknown_toolset_is_a_config_error_listing_the_installed_ones(
    sandbox: PluginSandbox,
) -> None:
    with pytest.raises(ConfigError) as caught:
        agent_from(sandbox, "model: {name: scripted, outputs: []}\ntools:\n  - fakeservr: {}\n")
    text = str(caught.value)
    assert "no toolset named 'fakeservr'" in text
    assert "did you mean 'fakeserver'" in text
    assert "line 3" in text


def test_toolsets_need_a_tool_chain() -> None:
    agent = Agent(ScriptedModel(["<answer>x</answer>"]), _xml(), toolsets=[FakeServer("s")])
    with pytest.raises(GentError, match="needs a tool chain"):
        asyncio.run(agent.open())


def _xml() -> Any:
    from gent_xml.format import XMLFormat

    return XMLFormat()
