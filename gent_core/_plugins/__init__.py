"""The plugin system: hook specifications, the plugin manager and the component registry."""

from gent_core._plugins.decisions import ToolCallDecision
from gent_core._plugins.manager import (
    ENTRY_POINT_GROUP,
    GentPluginManager,
    PluginInfo,
    PluginSelection,
    build_plugin_manager,
    get_plugin_manager,
    reset_plugin_manager,
)
from gent_core._plugins.registry import KINDS, ComponentEntry, ComponentKind, Registry
from gent_core.hookspecs import PROJECT_NAME, hookimpl, hookspec

__all__ = [
    "ENTRY_POINT_GROUP",
    "KINDS",
    "PROJECT_NAME",
    "ComponentEntry",
    "ComponentKind",
    "GentPluginManager",
    "PluginInfo",
    "PluginSelection",
    "Registry",
    "ToolCallDecision",
    "build_plugin_manager",
    "get_plugin_manager",
    "hookimpl",
    "hookspec",
    "reset_plugin_manager",
]
