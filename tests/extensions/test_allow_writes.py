"""Tools that write are configurable only when the config says ``allow_writes: true``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from gent_core import _builtin as core_plugin
from gent_core import hookimpl
from gent_core._agent import Agent
from gent_core._config import ConfigError, parse_config
from gent_core.context import ExecutionContext
from gent_core.testing import PluginSandbox
from gent_core.tools.base import Tool
from gent_core.tools.result import ToolResult


class Scribble(Tool):
    name = "scribble"
    description = "Writes a note to disk."
    writes = True

    @property
    def parameters(self) -> dict[str, Any]:
        return {"type": "object", "properties": {}}

    def validate_arguments(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        return dict(arguments)

    async def call(self, arguments: Mapping[str, Any], context: ExecutionContext) -> ToolResult:
        return ToolResult(output="written")


class Tools:
    @hookimpl
    def gent_register_tools(self) -> Sequence[Any]:
        return [Scribble]


@pytest.fixture
def sandbox(gent_plugins: PluginSandbox) -> PluginSandbox:
    import gent_json.plugin
    import gent_xml.plugin

    gent_plugins.register(core_plugin, "core")
    gent_plugins.register(gent_xml.plugin, "xml")
    gent_plugins.register(gent_json.plugin, "json")
    gent_plugins.register(Tools(), "scribbles")
    return gent_plugins


def build(sandbox: PluginSandbox, text: str) -> Agent:
    loaded = parse_config(text, source="agent.yaml", middleware_names=lambda: ())
    return Agent.from_config(loaded, registry=sandbox.registry(), plugin_manager=sandbox.manager)


MODEL = "model: {name: scripted, outputs: []}\n"


def test_a_writing_tool_without_allow_writes_is_an_error_at_its_line(
    sandbox: PluginSandbox,
) -> None:
    with pytest.raises(ConfigError) as caught:
        build(sandbox, MODEL + "tools:\n  - scribble\n")
    problem = caught.value.problems[0]
    assert problem.location.line == 3
    assert "allow_writes: true" in problem.message
    assert "'scribble'" in problem.message


def test_allow_writes_enables_it(sandbox: PluginSandbox) -> None:
    agent = build(sandbox, MODEL + "allow_writes: true\ntools: [scribble]\n")
    assert agent.toolchain is not None
    assert agent.toolchain.get_tool("scribble") is not None


def test_allow_writes_must_be_a_boolean(sandbox: PluginSandbox) -> None:
    with pytest.raises(ConfigError) as caught:
        build(sandbox, MODEL + "allow_writes: sometimes\n")
    assert "allow_writes" in str(caught.value)
