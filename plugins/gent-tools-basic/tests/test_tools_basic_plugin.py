"""The installed ``basic`` entry point supplies the tools, like any third-party package."""

from __future__ import annotations

from gent_tools_basic import plugin

from gent_core import PluginSelection, Registry, build_plugin_manager
from gent_core.testing import PluginSandbox, run_tool_sync
from gent_core.tools import Tool


def test_installed_entry_point_is_discovered() -> None:
    manager = build_plugin_manager(selection=PluginSelection())  # not strict: others may fail
    assert manager.plugin_infos["basic"].status == "loaded", manager.plugin_infos["basic"].error
    assert manager.plugin_infos["basic"].distribution == "gent-tools-basic"
    registry = Registry.from_plugin_manager(manager)
    names = registry.names("tool")
    assert "calculator" in names
    assert "current_time" in names
    calculator = registry.create("tool", "calculator")
    assert isinstance(calculator, Tool)
    assert run_tool_sync(calculator, {"expression": "6 * 7"}).output == 42


def test_registered_in_a_sandbox(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(plugin, "basic")
    registry = gent_plugins.registry()
    assert registry.names("tool") == ["calculator", "current_time"]
    assert registry.get("tool", "basic:current_time").plugin == "basic"
