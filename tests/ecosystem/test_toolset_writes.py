"""Toolset tools that write (``Tool.writes``) are offered only when the config allows writing,
and the agent says which ones it left out."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from gent_core import _builtin as core_plugin
from gent_core import hookimpl
from gent_core._agent import Agent
from gent_core._config import parse_config
from gent_core.context import ExecutionContext
from gent_core.testing import PluginSandbox
from gent_core.tools import ToolResult
from gent_core.tools.base import Tool
from gent_core.toolsets import Toolset


class NamedTool(Tool):
    def __init__(self, name: str, writes: bool) -> None:
        self.name = name
        self.writes = writes

    @property
    def parameters(self) -> dict[str, Any]:
        return {"type": "object", "properties": {}}

    def validate_arguments(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        return dict(arguments)

    async def call(self, arguments: Mapping[str, Any], context: ExecutionContext) -> ToolResult:
        return ToolResult(output=self.name)


class Repository(Toolset):
    """A toolset with one reading and two writing tools."""

    def __init__(self, name: str = "") -> None:
        self.name = name

    async def open(self, working_directory: Path) -> Sequence[Tool]:
        return [NamedTool("status", False), NamedTool("commit", True), NamedTool("reset", True)]


class RepositoryPlugin:
    @hookimpl
    def gent_register_toolsets(self) -> Mapping[str, Callable[..., Toolset]]:
        return {"repository": Repository}


@pytest.fixture
def sandbox(gent_plugins: PluginSandbox) -> PluginSandbox:
    import gent_json.plugin
    import gent_xml.plugin

    gent_plugins.register(core_plugin, "core")
    gent_plugins.register(gent_xml.plugin, "xml")
    gent_plugins.register(gent_json.plugin, "json")
    gent_plugins.register(RepositoryPlugin(), "repositories")
    return gent_plugins


def opened_tools(sandbox: PluginSandbox, extra: str = "") -> tuple[Agent, list[str]]:
    text = (
        "model: {name: scripted, outputs: []}\nformat: xml\ntoolchain: json\n"
        f"tools:\n  - repository: {{name: repo}}\n{extra}"
    )
    loaded = parse_config(text, source="agent.yaml", middleware_names=lambda: ())
    agent = Agent.from_config(loaded, registry=sandbox.registry(), plugin_manager=sandbox.manager)

    async def scenario() -> list[str]:
        async with agent:
            assert agent.toolchain is not None
            return [tool.name for tool in agent.toolchain.tools]

    return agent, asyncio.run(scenario())


def test_writing_toolset_tools_are_left_out_with_a_warning(
    sandbox: PluginSandbox, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="gent.agent"):
        agent, names = opened_tools(sandbox)
    assert names == ["status"]
    assert agent.withheld_tools == ["repo:commit", "repo:reset"]
    [record] = caplog.records
    assert "2 tool(s) that change files or other state are not offered (commit, reset)" in (
        record.getMessage()
    )
    assert "allow_writes: true" in record.getMessage()


def test_allow_writes_offers_them(sandbox: PluginSandbox) -> None:
    agent, names = opened_tools(sandbox, "allow_writes: true\n")
    assert names == ["status", "commit", "reset"]
    assert agent.withheld_tools == []


def test_an_agent_built_in_code_offers_every_toolset_tool() -> None:
    from gent_json.chain import JSONToolChain
    from gent_xml.format import XMLFormat

    from gent_core.testing import ScriptedModel

    agent = Agent(ScriptedModel([]), XMLFormat(), JSONToolChain(), toolsets=[Repository()])

    async def scenario() -> list[str]:
        async with agent:
            assert agent.toolchain is not None
            return [tool.name for tool in agent.toolchain.tools]

    assert asyncio.run(scenario()) == ["status", "commit", "reset"]
