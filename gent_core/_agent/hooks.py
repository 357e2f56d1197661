"""The lifecycle hooks of one run: the plugin manager whose hooks fire (the agent's plugins,
plus its middleware and approval policy scoped to the run), and firing a hook so that a
plugin that raises becomes a :class:`~gent_core.errors.HookError` naming it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gent_core._plugins.manager import GentPluginManager
from gent_core.context import ExecutionContext
from gent_core.errors import HookError

__all__ = ["fire_hook", "scoped_hooks"]


def scoped_hooks(
    plugin_manager: GentPluginManager | None,
    middleware: Sequence[object],
    approval: object | None,
) -> GentPluginManager | None:
    """The plugin manager whose hooks fire in one run: ``plugin_manager``'s plugins, plus
    ``middleware`` and ``approval`` in a manager of the run's own, so that concurrent runs of
    other agents sharing ``plugin_manager`` never see them (``plugin_manager`` itself when
    there is nothing to scope).
    """
    scoped: list[tuple[str, object]] = [
        (f"middleware-{index}-{type(item).__name__}", item) for index, item in enumerate(middleware)
    ]
    if approval is not None:
        scoped.append(("approval", approval))
    if not scoped:
        return plugin_manager
    manager = GentPluginManager()
    if plugin_manager is not None:
        for name, plugin in plugin_manager.list_name_plugin():
            if plugin is not None and name is not None:
                manager.register(plugin, name=name)
    for name, plugin in scoped:
        manager.register(plugin, name=name)
    return manager


def fire_hook(context: ExecutionContext, hook: str, **arguments: Any) -> None:
    """Call the lifecycle hook ``hook`` of every plugin of ``context``'s plugin manager.

    Raises:
        HookError: When a hook implementation raises, naming the hook and its plugins.
    """
    manager = context.plugin_manager
    if manager is None:
        return
    caller = getattr(manager.hook, hook)
    if not caller.get_hookimpls():
        return
    try:
        caller(context=context, **arguments)
    except Exception as error:
        raise HookError.raised_by(hook, caller, error) from error
