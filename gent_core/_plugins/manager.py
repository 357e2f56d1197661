"""Building the plugin manager and loading plugins from the ``gent`` entry-point group.

Nothing happens at import time: :func:`build_plugin_manager` creates a manager and loads the
installed plugins when asked, and :func:`get_plugin_manager` caches one for the process.

Environment switches:

``GENT_PLUGINS=a,b``
    Load only the plugins with these entry-point names.
``GENT_DISABLE_PLUGINS=a,b``
    Never load these plugins.
``GENT_STRICT_PLUGINS=1``
    A plugin that fails to import or register raises :class:`PluginLoadError` instead of being
    reported and skipped.
"""

from __future__ import annotations

import os
import traceback
import weakref
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any, Literal

import pluggy

from gent_core import hookspecs
from gent_core._plugins.markers import surely_unmarked
from gent_core.errors import PluginLoadError
from gent_core.hookspecs import PROJECT_NAME

__all__ = [
    "ENTRY_POINT_GROUP",
    "GentPluginManager",
    "InstalledPlugin",
    "PluginInfo",
    "PluginSelection",
    "PluginStatus",
    "build_plugin_manager",
    "get_plugin_manager",
    "installed_plugins",
]

ENTRY_POINT_GROUP = PROJECT_NAME
"""The entry-point group plugins declare themselves in."""

HOOK_PREFIX = "gent_"

PluginStatus = Literal["loaded", "failed", "disabled"]


@dataclass
class PluginInfo:
    """What is known about one plugin.

    Attributes:
        name: The plugin's name (its entry-point name, or the name given at registration).
        module: The entry point's value (``"gent_xml"``), or the object's repr for plugins
            registered directly.
        distribution: The distribution that declares it (``"gent-xml"``), if any.
        version: That distribution's version.
        status: ``"loaded"``, ``"failed"`` or ``"disabled"`` (by the allow/deny lists).
        error: Why it failed or was disabled.
        components: ``{kind: [name, ...]}`` of what it supplies, filled in by the registry.
    """

    name: str
    module: str
    distribution: str | None = None
    version: str | None = None
    status: PluginStatus = "loaded"
    error: str | None = None
    components: dict[str, list[str]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (what ``gent plugins --json`` prints)."""
        return {
            "name": self.name,
            "module": self.module,
            "distribution": self.distribution,
            "version": self.version,
            "status": self.status,
            "error": self.error,
            "components": self.components,
        }


def _split_names(value: str | None) -> frozenset[str] | None:
    if value is None or not value.strip():
        return None
    return frozenset(part.strip() for part in value.split(",") if part.strip())


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}


@dataclass(frozen=True)
class PluginSelection:
    """Which plugins may load, and whether a failure is fatal.

    Attributes:
        only: Allow-list of plugin names (``None`` allows every plugin).
        disabled: Deny-list of plugin names.
        strict: Whether a plugin that fails to load raises :class:`PluginLoadError`.
    """

    only: frozenset[str] | None = None
    disabled: frozenset[str] = frozenset()
    strict: bool = False

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> PluginSelection:
        """Read ``GENT_PLUGINS``, ``GENT_DISABLE_PLUGINS`` and ``GENT_STRICT_PLUGINS``."""
        env = os.environ if environ is None else environ
        return cls(
            only=_split_names(env.get("GENT_PLUGINS")),
            disabled=_split_names(env.get("GENT_DISABLE_PLUGINS")) or frozenset(),
            strict=_truthy(env.get("GENT_STRICT_PLUGINS")),
        )

    def refusal(self, name: str) -> str | None:
        """Return why plugin ``name`` may not load, or ``None`` when it may."""
        if name in self.disabled:
            return "disabled by GENT_DISABLE_PLUGINS"
        if self.only is not None and name not in self.only:
            return "not listed in GENT_PLUGINS"
        return None


def _distribution_of(entry_point: metadata.EntryPoint) -> tuple[str | None, str | None]:
    """Return the name and version of the distribution declaring ``entry_point``."""
    dist = getattr(entry_point, "dist", None)
    if dist is None:
        return None, None
    fields = dist.metadata  # parsed once: each access to .metadata re-reads the file
    return fields["Name"], fields["Version"]


@dataclass(frozen=True)
class InstalledPlugin:
    """A plugin an installed distribution declares, read from its metadata (not imported).

    Attributes:
        name: The entry-point name (what ``gent plugins`` shows).
        distribution: The distribution that declares it (``"gent-xml"``), if known.
        version: That distribution's version.
    """

    name: str
    distribution: str | None
    version: str | None


def installed_plugins() -> list[InstalledPlugin]:
    """Every ``gent`` entry point installed now, read from the package metadata without
    importing any plugin (so a broken plugin is listed too).
    """
    found = []
    for entry_point in metadata.entry_points(group=ENTRY_POINT_GROUP):
        distribution, version = _distribution_of(entry_point)
        found.append(InstalledPlugin(entry_point.name, distribution, version))
    return found


def _describe_exception(error: BaseException) -> str:
    lines = traceback.format_exception_only(type(error), error)
    return "".join(lines).strip()


_SPEC_OPTS: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()
"""Each hook specification module's (or class's) options by name, as pluggy parsed them."""


class GentPluginManager(pluggy.PluginManager):
    """A :class:`pluggy.PluginManager` for gent that records every plugin's fate.

    Hook implementations must be marked with :data:`gent_core.hookimpl` and be named after a
    hook (``gent_...``); anything else makes the plugin fail loudly rather than be ignored.
    """

    def __init__(self, selection: PluginSelection | None = None) -> None:
        super().__init__(PROJECT_NAME)
        self.selection = selection if selection is not None else PluginSelection()
        self.plugin_infos: dict[str, PluginInfo] = {}
        self.add_hookspecs(hookspecs)
        # Historic: every plugin implementing it, registered now or later, adds its specs.
        self.hook.gent_add_hookspecs.call_historic(kwargs={"pluginmanager": self})

    def add_hookspecs(self, module_or_class: Any) -> None:
        """Add the hook specifications (functions marked ``@gent_core.hookspec``) of
        ``module_or_class``: gent's own, or a plugin's through ``gent_add_hookspecs``.

        Plugins registered earlier may implement a hook before its specification arrives
        (the order of entry points is not fixed). An implementation whose arguments the new
        specification does not have fails *its* plugin (reported, or raised in strict mode),
        not the plugin adding the specification.
        """
        for name in dir(module_or_class):
            opts = self.parse_hookspec_opts(module_or_class, name)
            caller = getattr(self.hook, name, None)
            if opts is None or not isinstance(caller, pluggy.HookCaller) or caller.has_spec():
                continue
            spec = pluggy.HookCaller(name, self._hookexec, module_or_class, opts).spec
            accepted = set(spec.argnames if spec is not None else ())
            for impl in caller.get_hookimpls():
                extra = sorted(set(impl.argnames) - accepted)
                info = self.plugin_infos.get(impl.plugin_name)
                if extra and info is not None:
                    self.record_failure(
                        info,
                        pluggy.PluginValidationError(
                            impl.plugin,
                            f"hook implementation {name!r} takes {extra}, which the hook's "
                            f"specification does not pass (it passes {sorted(accepted)})",
                        ),
                    )
        super().add_hookspecs(module_or_class)

    def parse_hookspec_opts(self, module_or_class: Any, name: str) -> Any:
        """The options pluggy parses, remembered for the process (each run with middleware builds a
        manager of its own, :mod:`gent_core._agent.hooks`; specifications do not change).
        """
        try:
            known = _SPEC_OPTS.setdefault(module_or_class, {})
        except TypeError:  # not weakly referable: asked each time
            known = {}
        if name not in known:
            if surely_unmarked(module_or_class, name, f"{self.project_name}_spec"):
                known[name] = None
            else:
                known[name] = super().parse_hookspec_opts(module_or_class, name)
        return known[name]

    def parse_hookimpl_opts(self, plugin: object, name: str) -> Any:
        """Reject marked implementations whose name lacks the ``gent_`` prefix."""
        if surely_unmarked(plugin, name, f"{self.project_name}_impl"):
            return None
        opts = super().parse_hookimpl_opts(plugin, name)
        if opts is not None and not name.startswith(HOOK_PREFIX):
            raise pluggy.PluginValidationError(
                plugin,
                f"hook implementation {name!r} must be named after a gent hook "
                f"(names start with {HOOK_PREFIX!r})",
            )
        return opts

    # ------------------------------------------------------------------ registration

    def add_plugin(
        self,
        plugin: object,
        name: str,
        *,
        module: str | None = None,
        distribution: str | None = None,
        version: str | None = None,
        check_names: bool = True,
    ) -> PluginInfo:
        """Register ``plugin`` under ``name``, validating its hook implementations.

        A plugin that is disabled by the selection is recorded but not registered. A plugin
        whose implementations are invalid is recorded as failed (or raises in strict mode).
        ``check_names=False`` leaves the check for unknown hook names to the caller
        (:meth:`check_loaded_hook_names`), for plugins whose hooks another plugin, registered
        later, specifies.

        Returns:
            The plugin's :class:`PluginInfo`.
        """
        info = PluginInfo(
            name=name,
            module=module if module is not None else repr(plugin),
            distribution=distribution,
            version=version,
        )
        self.plugin_infos[name] = info
        refusal = self.selection.refusal(name)
        if refusal is not None:
            info.status = "disabled"
            info.error = refusal
            return info
        try:
            self.register(plugin, name=name)
            if check_names:
                self.check_hook_names(plugin, name)
        except Exception as error:  # noqa: BLE001 - any failure of a plugin is reported
            self.record_failure(info, error)
        return info

    def check_hook_names(self, plugin: object, name: str) -> None:
        """Fail on implementations of hooks that do not exist (a typo in the name).

        Raises:
            pluggy.PluginValidationError: Naming the unknown hook and listing the known ones.
        """
        for hook_name in dir(self.hook):
            caller = getattr(self.hook, hook_name)
            if not isinstance(caller, pluggy.HookCaller) or caller.has_spec():
                continue
            if any(impl.plugin_name == name for impl in caller.get_hookimpls()):
                raise pluggy.PluginValidationError(
                    plugin,
                    f"unknown hook {hook_name!r}; known hooks: {', '.join(self.known_hooks())}",
                )

    def known_hooks(self) -> list[str]:
        """The names of every hook this manager has a specification for: gent's own and
        those plugins added through ``gent_add_hookspecs``.
        """
        return sorted(
            name
            for name in dir(self.hook)
            if name.startswith(HOOK_PREFIX)
            and isinstance(getattr(self.hook, name), pluggy.HookCaller)
            and getattr(self.hook, name).has_spec()
        )

    def check_loaded_hook_names(self, names: Iterable[str]) -> None:
        """Run :meth:`check_hook_names` on the loaded plugins among ``names``, recording each
        one that implements an unknown hook as failed (or raising in strict mode).
        """
        for name in names:
            info = self.plugin_infos.get(name)
            plugin = self.get_plugin(name)
            if info is None or info.status != "loaded" or plugin is None:
                continue
            try:
                self.check_hook_names(plugin, name)
            except pluggy.PluginValidationError as error:
                self.record_failure(info, error)

    def record_failure(self, info: PluginInfo, error: BaseException) -> None:
        """Mark ``info`` as failed with ``error``; raise :class:`PluginLoadError` when strict."""
        info.status = "failed"
        info.error = _describe_exception(error)
        if self.get_plugin(info.name) is not None:
            self.unregister(name=info.name)
        if self.selection.strict:
            raise PluginLoadError(info.name, info.distribution, info.error, cause=error)

    # ------------------------------------------------------------------ entry points

    def load_entry_points(self, entry_points: Iterable[metadata.EntryPoint] | None = None) -> None:
        """Import and register every plugin of the ``gent`` entry-point group.

        Args:
            entry_points: The entry points to load; by default those installed.

        Raises:
            PluginLoadError: In strict mode, for the first plugin that fails.
        """
        if entry_points is None:
            entry_points = metadata.entry_points(group=ENTRY_POINT_GROUP)
        loaded: list[str] = []
        for entry_point in entry_points:
            if entry_point.name in self.plugin_infos:
                continue
            dist_name, dist_version = _distribution_of(entry_point)
            if self.selection.refusal(entry_point.name) is not None:
                self.add_plugin(
                    None,
                    entry_point.name,
                    module=entry_point.value,
                    distribution=dist_name,
                    version=dist_version,
                )
                continue
            try:
                plugin = entry_point.load()
            except BaseException as error:
                if isinstance(error, KeyboardInterrupt):
                    raise
                info = PluginInfo(
                    entry_point.name, entry_point.value, dist_name, dist_version, "failed"
                )
                self.plugin_infos[entry_point.name] = info
                self.record_failure(info, error)
                continue
            self.add_plugin(
                plugin,
                entry_point.name,
                module=entry_point.value,
                distribution=dist_name,
                version=dist_version,
                check_names=False,
            )
            loaded.append(entry_point.name)
        # Hook names are checked once every plugin is in: a plugin may implement a hook that
        # a plugin loaded after it specifies (gent_add_hookspecs).
        self.check_loaded_hook_names(loaded)

    def loaded_plugin_names(self) -> list[str]:
        """Names of the plugins that loaded, in load order."""
        return [name for name, info in self.plugin_infos.items() if info.status == "loaded"]


def known_hooks() -> list[str]:
    """Return the names of every gent hook."""
    return sorted(name for name in vars(hookspecs) if name.startswith(HOOK_PREFIX))


def build_plugin_manager(
    *,
    load_entry_points: bool = True,
    selection: PluginSelection | None = None,
) -> GentPluginManager:
    """Create a plugin manager and (by default) load the installed plugins.

    Args:
        load_entry_points: Whether to load the ``gent`` entry points.
        selection: Allow/deny lists and strictness; read from the environment by default.

    Raises:
        PluginLoadError: In strict mode, when a plugin fails to load.
    """
    manager = GentPluginManager(
        selection if selection is not None else PluginSelection.from_environment()
    )
    if load_entry_points:
        manager.load_entry_points()
    return manager


_default_manager: GentPluginManager | None = None


def get_plugin_manager() -> GentPluginManager:
    """Return the process-wide plugin manager, building it on first use."""
    global _default_manager
    if _default_manager is None:
        _default_manager = build_plugin_manager()
    return _default_manager


def reset_plugin_manager() -> None:
    """Forget the process-wide plugin manager (tests, or after installing plugins)."""
    global _default_manager
    _default_manager = None
