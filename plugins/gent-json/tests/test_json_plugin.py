"""gent-json as a plugin: registration, entry point, and one end-to-end execution."""

from __future__ import annotations

import asyncio
from importlib import metadata
from pathlib import Path

from gent_json import JSONToolChain, plugin

from gent_core import execute_action
from gent_core.context import ExecutionContext
from gent_core.testing import PlainFormat, PluginSandbox
from gent_core.tools import tool


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def test_the_plugin_registers_the_json_toolchain(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(plugin, "json")
    chain = gent_plugins.registry().create("toolchain", "json", tools=[add], indent=2)
    assert isinstance(chain, JSONToolChain)
    assert chain.indent == 2 and chain.get_tool("add") is add


def test_the_entry_point_is_declared() -> None:
    entry_points = metadata.entry_points(group="gent")
    assert any(ep.name == "json" and ep.value == "gent_json.plugin" for ep in entry_points)


def test_a_call_runs_end_to_end(tmp_path: Path) -> None:
    chain = JSONToolChain([add])
    result = asyncio.run(
        execute_action(
            chain,
            '```json\n[{"tool": "add", "args": {"a": 2, "b": 3}}, {"name": "add", '
            '"arguments": "{\\"a\\": 1, \\"b\\": 1}"}]\n```',
            PlainFormat(),
            ExecutionContext(tmp_path),
        )
    )
    assert [r.output for r in result.results] == [5, 2]
    assert result.text == "[observation]\n  [add]\n  5\n  [add]\n  2"
