"""Which commands ``gent`` has: every one comes through the ``gent_register_commands`` hook.

The built-in commands are supplied by gent-core's own plugin (:mod:`gent_core._builtin`), the
others by installed plugins. Finding them calls that one hook and nothing else: no other
registration hook runs, no component registry is built, and no command module is imported
(a :class:`~gent_core.Command` names its module; the parser imports it only for the command
that runs or whose help is shown).

The built-in commands are always there, also when the ``core`` plugin is disabled or a plugin
fails in strict mode: they are the command line's own frame (``gent plugins`` must be able to
say what is wrong).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Mapping
from typing import NamedTuple

from gent_core._plugins.commands import Command

__all__ = [
    "CACHE_TOPIC",
    "CORE_PLUGIN",
    "CommandEntry",
    "builtin_commands",
    "find_commands",
    "process_manager_set",
]

logger = logging.getLogger("gent.cli")

CORE_PLUGIN = "core"
"""The name the built-in commands are listed under (gent-core's own plugin)."""

CACHE_TOPIC = "commands"
"""The discovery cache's topic for the plugins' commands."""


class CommandEntry(NamedTuple):
    """One ``gent`` command: its name, the plugin supplying it and what the plugin said.

    Attributes:
        name: The command's name (``"run"``, ``"mcp-serve"``).
        plugin: The plugin supplying it (``"core"`` for the built-in commands).
        command: The :class:`~gent_core.Command`: the module to import and one line of help.
    """

    name: str
    plugin: str
    command: Command

    @property
    def module(self) -> str:
        """The module implementing ``add_arguments(parser)`` and ``run(args)``."""
        return self.command.module

    @property
    def help(self) -> str:
        """The one line ``gent --help`` shows."""
        return self.command.help


def builtin_commands() -> dict[str, CommandEntry]:
    """The built-in commands, in the order ``gent --help`` lists them."""
    from gent_core._plugins.core_commands import COMMANDS  # what the core plugin supplies

    return {name: CommandEntry(name, CORE_PLUGIN, command) for name, command in COMMANDS.items()}


def _plugin_entries() -> list[CommandEntry]:
    """The commands every loaded plugin other than the core supplies, in load order.

    Read from the discovery cache (:mod:`gent_core._plugins.cache`) when it holds an answer
    for the installed code as it is now; otherwise found by loading the plugins, and
    remembered when every plugin loaded (a failure is found again, and reported, each time).
    """
    from gent_core._plugins import cache

    if process_manager_set():  # a test's sandbox: its plugins, not the installed ones
        return _found_plugin_entries()[0]
    remembered = _entries_from_cache(cache.recall(CACHE_TOPIC), cache.declared_plugins)
    if remembered is not None:
        return remembered
    since = cache.started()
    found, complete = _found_plugin_entries()
    if complete:
        value = [[e.name, e.plugin, e.command.module, e.command.help] for e in found]
        cache.remember(CACHE_TOPIC, value, since)
    return found


def process_manager_set() -> bool:
    """Whether code (a test's :class:`~gent_core.testing.PluginSandbox`) has set the
    process-wide plugin manager, which the discovery cache knows nothing of.
    """
    manager = sys.modules.get("gent_core._plugins.manager")
    return manager is not None and getattr(manager, "_default_manager", None) is not None


def _entries_from_cache(
    value: object, declared: Callable[[], Mapping[str, frozenset[str]]]
) -> list[CommandEntry] | None:
    """The entries a cached value describes, or ``None`` when it is not a list of
    ``[name, plugin, module, help]`` strings (a corrupt file), or names a plugin or module
    the installed entry points do not declare (``declared()``: a cache may only save work,
    never add a module to import).
    """
    from gent_core._plugins.cache import declares

    if not isinstance(value, list):
        return None
    entries = []
    for item in value:
        if not (
            isinstance(item, list) and len(item) == 4 and all(isinstance(s, str) for s in item)
        ):
            return None
        name, plugin, module, help_text = item
        entries.append(CommandEntry(name, plugin, Command(module, help_text)))
    if entries:
        installed = declared()
        if not all(declares(installed, entry.plugin, entry.module) for entry in entries):
            logger.debug("the discovery cache names undeclared modules; not used")
            return None
    return entries


def _found_plugin_entries() -> tuple[list[CommandEntry], bool]:
    """The plugins' commands, found by loading the plugins, and whether every plugin
    loaded (nothing failed: the answer may be remembered).

    A plugin whose command hook raises or returns something malformed is marked failed (as
    the component registry would) and supplies nothing.
    """
    from gent_core import _builtin
    from gent_core._plugins.manager import PluginInfo, get_plugin_manager
    from gent_core._plugins.registry import entries_from
    from gent_core.errors import PluginLoadError

    try:
        manager = get_plugin_manager()
        found: list[CommandEntry] = []
        for impl in manager.hook.gent_register_commands.get_hookimpls():
            if impl.plugin is _builtin:
                continue
            try:
                entries = entries_from("command", impl.plugin_name, impl.function())
            except Exception as error:  # noqa: BLE001 - a broken plugin is reported
                info = manager.plugin_infos.setdefault(
                    impl.plugin_name, PluginInfo(impl.plugin_name, repr(impl.plugin))
                )
                logger.warning("plugin %s supplies no command: %s", impl.plugin_name, error)
                manager.record_failure(info, error)
                continue
            found += [CommandEntry(e.name, e.plugin, e.factory) for e in entries]
    except PluginLoadError as error:  # strict mode: the command that needs plugins reports it
        logger.warning("plugin commands are unavailable: %s", error)
        return [], False
    complete = all(info.status != "failed" for info in manager.plugin_infos.values())
    return found, complete


def find_commands(*, with_plugins: bool = True) -> dict[str, CommandEntry]:
    """Every command of ``gent``: the built-in ones, then the plugins' (unless told not to).

    A name taken by a built-in command, or supplied by several plugins, is left out with a
    warning naming the plugins.
    """
    commands = builtin_commands()
    if not with_plugins:
        return commands
    entries = _plugin_entries()
    suppliers: dict[str, list[str]] = {}
    for entry in entries:
        suppliers.setdefault(entry.name, []).append(entry.plugin)
    for entry in entries:
        plugins = suppliers[entry.name]
        if entry.name in commands and commands[entry.name].plugin == CORE_PLUGIN:
            logger.warning(
                "plugin %s supplies the command %r, which is a built-in command; ignored",
                entry.plugin,
                entry.name,
            )
        elif len(plugins) > 1:
            if entry.plugin == plugins[0]:
                logger.warning(
                    "the command %r is supplied by several plugins (%s); none is added",
                    entry.name,
                    ", ".join(plugins),
                )
        else:
            commands[entry.name] = entry
    return commands
