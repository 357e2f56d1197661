"""The plugin system: hook specifications, the plugin manager and the component registry."""

from gent_core.plugins.decisions import ToolCallDecision
from gent_core.plugins.hookspecs import PROJECT_NAME, hookimpl, hookspec
from gent_core.plugins.manager import (
    ENTRY_POINT_GROUP,
    GentPluginManager,
    PluginInfo,
    PluginSelection,
    build_plugin_manager,
    get_plugin_manager,
    reset_plugin_manager,
)
from gent_core.plugins.registry import KINDS, ComponentEntry, ComponentKind, Registry

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
