"""The component registry: which plugin supplies which format, tool chain, termination, tool
and model, and how to look one up by name.

Names are looked up per kind. A plain name (``"xml"``) must be supplied by exactly one plugin;
when several plugins supply it, the lookup fails naming them all, and a qualified name
(``"gent-xml:xml"`` style: ``"<plugin>:<component>"``) picks one. An unknown name fails
listing what is available and suggesting the closest name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from gent_core._plugins.kinds import KINDS, ComponentKind
from gent_core._plugins.manager import GentPluginManager, PluginInfo
from gent_core.errors import AmbiguousComponentError, ComponentNotFoundError, GentError, Location

__all__ = ["KINDS", "ComponentEntry", "ComponentKind", "Registry", "entries_from"]

_HOOKS: dict[ComponentKind, str] = {
    "format": "gent_register_formats",
    "toolchain": "gent_register_toolchains",
    "termination": "gent_register_terminations",
    "tool": "gent_register_tools",
    "model": "gent_register_models",
    "toolset": "gent_register_toolsets",
    "middleware": "gent_register_middleware",
    "command": "gent_register_commands",
}


@dataclass(frozen=True)
class ComponentEntry:
    """One component supplied by one plugin.

    Attributes:
        kind: The component kind.
        name: The component name.
        plugin: The name of the plugin that supplies it.
        factory: What the plugin returned: a class or factory (called with options), or for
            tools, possibly a ready tool object.
    """

    kind: ComponentKind
    name: str
    plugin: str
    factory: Any

    @property
    def qualified_name(self) -> str:
        """``"<plugin>:<name>"``."""
        return f"{self.plugin}:{self.name}"


def _tool_name(item: Any) -> str:
    name = getattr(item, "name", None)
    if not isinstance(name, str) or not name:
        raise TypeError(f"tool {item!r} has no string 'name' attribute")
    return name


def _check_command(name: str, command: Any) -> None:
    from gent_core._plugins.commands import COMMAND_NAME, Command

    if not isinstance(command, Command):
        raise TypeError(
            f"gent_register_commands must map names to Command(module, help), "
            f"got {type(command).__name__} for {name!r}"
        )
    if not COMMAND_NAME.fullmatch(name):
        raise TypeError(
            f"command name {name!r} is not valid (lowercase letters, digits and dashes, "
            "starting with a letter)"
        )


def entries_from(kind: ComponentKind, plugin: str, supplied: Any) -> list[ComponentEntry]:
    """Check what one plugin's registration hook of ``kind`` returned and make its entries.

    Raises:
        TypeError: Naming what is malformed (not a mapping, a bad name or factory, a tool
            without a name, a command that is not a :class:`~gent_core.Command`).
    """
    if supplied is None:
        return []
    if kind == "tool":
        if isinstance(supplied, Mapping) or not isinstance(supplied, Iterable):
            raise TypeError(
                "gent_register_tools must return a sequence of tools, "
                f"got {type(supplied).__name__}"
            )
        return [ComponentEntry(kind, _tool_name(item), plugin, item) for item in supplied]
    if not isinstance(supplied, Mapping):
        raise TypeError(
            f"{_HOOKS[kind]} must return a mapping of name to factory, "
            f"got {type(supplied).__name__}"
        )
    entries = []
    for name, factory in supplied.items():
        if not isinstance(name, str) or not name:
            raise TypeError(f"{_HOOKS[kind]} returned a non-string name {name!r}")
        if kind == "command":
            _check_command(name, factory)
        elif not callable(factory):
            raise TypeError(f"{_HOOKS[kind]} returned a non-callable factory for {name!r}")
        entries.append(ComponentEntry(kind, name, plugin, factory))
    return entries


class Registry:
    """Every component supplied by the loaded plugins, by kind and name.

    Build it with :meth:`from_plugin_manager`. A plugin whose registration hook raises or
    returns something malformed is marked failed (or raises in strict mode) and supplies
    nothing; the other plugins are unaffected.
    """

    def __init__(self, entries: Iterable[ComponentEntry] = ()) -> None:
        self._by_kind: dict[ComponentKind, dict[str, list[ComponentEntry]]] = {
            kind: {} for kind in KINDS
        }
        for entry in entries:
            self.add(entry)

    def add(self, entry: ComponentEntry) -> None:
        """Add ``entry`` (a plugin supplying a name twice keeps its first entry)."""
        providers = self._by_kind[entry.kind].setdefault(entry.name, [])
        if not any(existing.plugin == entry.plugin for existing in providers):
            providers.append(entry)

    @classmethod
    def from_plugin_manager(cls, manager: GentPluginManager) -> Registry:
        """Call every registration hook of every loaded plugin and collect the components.

        Also fills in :attr:`PluginInfo.components` for each plugin.

        Raises:
            PluginLoadError: In strict mode, when a plugin's registration fails.
        """
        collected: dict[str, list[ComponentEntry]] = {}
        failed: set[str] = set()
        for kind in KINDS:
            caller = getattr(manager.hook, _HOOKS[kind])
            for impl in caller.get_hookimpls():
                plugin = impl.plugin_name
                if plugin in failed:
                    continue
                try:
                    supplied = impl.function()
                    collected.setdefault(plugin, []).extend(entries_from(kind, plugin, supplied))
                except Exception as error:  # noqa: BLE001 - a broken plugin is reported
                    failed.add(plugin)
                    collected.pop(plugin, None)
                    info = manager.plugin_infos.setdefault(
                        plugin, PluginInfo(plugin, repr(impl.plugin))
                    )
                    info.components = {}
                    manager.record_failure(info, error)
        registry = cls()
        for plugin, entries in collected.items():
            if plugin in failed:
                continue
            supplier = manager.plugin_infos.get(plugin)
            for entry in entries:
                registry.add(entry)
                if supplier is not None:
                    supplier.components.setdefault(entry.kind, []).append(entry.name)
        return registry

    # ------------------------------------------------------------------ lookup

    def names(self, kind: ComponentKind) -> list[str]:
        """Sorted names of every component of ``kind`` (qualified where names collide)."""
        names: list[str] = []
        for name, providers in self._by_kind[kind].items():
            if len(providers) == 1:
                names.append(name)
            else:
                names.extend(entry.qualified_name for entry in providers)
        return sorted(names)

    def entries(self, kind: ComponentKind) -> list[ComponentEntry]:
        """Every entry of ``kind``, including every provider of a colliding name."""
        return [entry for providers in self._by_kind[kind].values() for entry in providers]

    def get(self, kind: ComponentKind, name: str) -> ComponentEntry:
        """Look up one component.

        Args:
            kind: The component kind.
            name: A plain name (``"xml"``) or a qualified one (``"myplugin:xml"``).

        Raises:
            ComponentNotFoundError: No such component; lists what exists, suggests a name.
            AmbiguousComponentError: Several plugins supply ``name``; names them.
        """
        plugin, _, component = name.rpartition(":")
        providers = self._by_kind[kind].get(component, [])
        if plugin:
            for entry in providers:
                if entry.plugin == plugin:
                    return entry
            raise self._not_found(kind, name)
        if not providers:
            raise self._not_found(kind, name)
        if len(providers) > 1:
            raise AmbiguousComponentError(kind, name, [entry.plugin for entry in providers])
        return providers[0]

    def _not_found(self, kind: ComponentKind, name: str) -> ComponentNotFoundError:
        available = self.names(kind)
        candidates = available + [entry.qualified_name for entry in self.entries(kind)]
        import difflib  # only for an unknown name: the command line's start stays light

        close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.5)
        from gent_core._plugins.available import install_hint

        return ComponentNotFoundError(
            kind, name, available, close[0] if close else None, install_hint(kind, name)
        )

    def create(self, kind: ComponentKind, name: str, **options: Any) -> Any:
        """Look up ``name`` and build the component with ``options``.

        A ready tool object (not a class) is returned as is and accepts no options.

        Raises:
            ComponentNotFoundError, AmbiguousComponentError: See :meth:`get`.
            GentError: When the options are not accepted by the component.
        """
        entry = self.get(kind, name)
        factory = entry.factory
        if kind == "tool" and not isinstance(factory, type):
            if options:
                raise GentError(
                    f"tool {name!r} takes no options, got {', '.join(sorted(options))}",
                    location=Location(tool=name, plugin=entry.plugin),
                )
            return factory
        try:
            return cast(Callable[..., Any], factory)(**options)
        except TypeError as error:
            raise GentError(
                f"{kind} {name!r} does not accept these options: {error}",
                location=Location(plugin=entry.plugin),
            ) from error
