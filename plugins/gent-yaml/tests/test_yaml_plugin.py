"""gent-yaml as a plugin: registration, entry point, and one end-to-end execution."""

from __future__ import annotations

import asyncio
from importlib import metadata
from pathlib import Path

from gent_yaml import YAMLToolChain, plugin

from gent_core import execute_action
from gent_core.context import ExecutionContext
from gent_core.testing import PlainFormat, PluginSandbox
from gent_core.tools import tool


@tool
def tag(version: str, count: int) -> dict[str, object]:
    """Tag a release."""
    return {"version": version, "count": count, "notes": "line 1\nline 2"}


def test_the_plugin_registers_the_yaml_toolchain(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(plugin, "yaml")
    chain = gent_plugins.registry().create("toolchain", "yaml", tools=[tag], max_nodes=50)
    assert isinstance(chain, YAMLToolChain)
    assert chain.max_nodes == 50 and chain.get_tool("tag") is tag


def test_the_entry_point_is_declared() -> None:
    entry_points = metadata.entry_points(group="gent")
    assert any(ep.name == "yaml" and ep.value == "gent_yaml.plugin" for ep in entry_points)


def test_a_call_runs_end_to_end_with_verbatim_strings(tmp_path: Path) -> None:
    chain = YAMLToolChain([tag])
    result = asyncio.run(
        execute_action(
            chain,
            "tool: tag\nargs:\n  version: 1.10\n  count: 3\n",
            PlainFormat(),
            ExecutionContext(tmp_path),
        )
    )
    assert result.results[0].output == {"version": "1.10", "count": 3, "notes": "line 1\nline 2"}
    assert result.text == (
        "[observation]\n  [tag]\n  version: '1.10'\n  count: 3\n  notes: |-\n    line 1\n    line 2"
    )
