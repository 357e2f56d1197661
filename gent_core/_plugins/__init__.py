"""The plugin system: hook specifications, the plugin manager and the component registry.

Names load lazily (as in :mod:`gent_core`), so importing one module of the package
(:mod:`gent_core._plugins.commands`, which every ``gent`` command line needs) does not
import the plugin manager and :mod:`importlib.metadata`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core._lazy import export_names, load_export

_EXPORTS: dict[str, str] = {
    "ToolCallDecision": "gent_core._plugins.decisions",
    "ENTRY_POINT_GROUP": "gent_core._plugins.manager",
    "GentPluginManager": "gent_core._plugins.manager",
    "PluginInfo": "gent_core._plugins.manager",
    "PluginSelection": "gent_core._plugins.manager",
    "build_plugin_manager": "gent_core._plugins.manager",
    "get_plugin_manager": "gent_core._plugins.manager",
    "reset_plugin_manager": "gent_core._plugins.manager",
    "KINDS": "gent_core._plugins.registry",
    "ComponentEntry": "gent_core._plugins.registry",
    "ComponentKind": "gent_core._plugins.registry",
    "Registry": "gent_core._plugins.registry",
    "PROJECT_NAME": "gent_core.hookspecs",
    "hookimpl": "gent_core.hookspecs",
    "hookspec": "gent_core.hookspecs",
}

if TYPE_CHECKING:
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


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())
