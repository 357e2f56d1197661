"""Building an agent's components from a loaded configuration and the plugin registry.

Two phases, each reporting every problem at once:

1. every component is looked up (unknown and ambiguous names are reported with the installed
   names) and its options are validated (see :mod:`gent_core._config.options`);
2. only when all of that is right, the components are created; a factory that raises, or
   that returns something that is not the kind's contract class, is reported naming it.

Every problem names the file, the line and the key.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from gent_core._config.loading import LoadedConfig
from gent_core._config.models import AgentConfig, ComponentSpec, DeclareSpec, ToolsetSpec
from gent_core._config.options import check_options
from gent_core._config.overrides import key_path
from gent_core._config.yamldoc import KeyPath
from gent_core._importing import import_search_path
from gent_core._plugins.registry import ComponentEntry, ComponentKind, Registry
from gent_core.errors import (
    AmbiguousComponentError,
    ComponentNotFoundError,
    ConfigError,
    ConfigProblem,
    GentError,
    Location,
    describe_error,
)
from gent_core.formats import TextFormat
from gent_core.model import Model
from gent_core.termination import Termination
from gent_core.toolchain import ToolChain
from gent_core.tools.base import Tool
from gent_core.toolsets import Toolset

__all__ = ["Components", "build_components"]

_CONTRACTS: dict[ComponentKind, type] = {
    "model": Model,
    "format": TextFormat,
    "toolchain": ToolChain,
    "termination": Termination,
    "tool": Tool,
    "toolset": Toolset,
    "middleware": object,
}


_CODE_TOOLS: KeyPath = ("tools",)
"""Where problems with tools made in code are reported: the ``tools`` key."""


@dataclass
class Components:
    """The components an agent is made of.

    Attributes:
        model: The model back end.
        format: The text format.
        toolchain: The tool chain, created with ``tools=`` :attr:`tools` (``None`` only when
            it was given as ``None``: an agent without tools).
        termination: The termination.
        tools: The tools, in config order.
        toolsets: The toolsets (opened by the agent before its first run), in config order.
        toolset_origins: Where each toolset was configured (``id(toolset)`` -> location),
            for errors raised when it is opened.
        middleware: The middleware plugin objects, registered for each run.
    """

    model: Model
    format: TextFormat
    toolchain: ToolChain | None
    termination: Termination
    tools: list[Tool] = field(default_factory=list)
    toolsets: list[Toolset] = field(default_factory=list)
    toolset_origins: dict[int, Location] = field(default_factory=dict)
    middleware: list[object] = field(default_factory=list)


@dataclass
class _Plan:
    """One component to create: where it is configured, its entry and its checked options."""

    kind: ComponentKind
    path: KeyPath
    spec: ComponentSpec
    entry: ComponentEntry
    kwargs: dict[str, Any]


class _Builder:
    def __init__(self, loaded: LoadedConfig, registry: Registry) -> None:
        self.loaded = loaded
        self.registry = registry
        self.problems: list[ConfigProblem] = []

    # ------------------------------------------------------------------ locations

    def name_path(self, path: KeyPath) -> KeyPath:
        """The path of a component's name: ``tools.1.name``, or ``format`` (short form)."""
        named = (*path, "name")
        return named if named in self.loaded.marks else path

    def option_path(self, path: KeyPath, option: KeyPath) -> KeyPath:
        """The path of an option: ``model.temperature`` or ``model.options.temperature``."""
        explicit = (*path, "options", *option)
        if option and (*path, "options", option[0]) in self.loaded.marks:
            return explicit
        return (*path, *option)

    def problem(self, message: str, path: KeyPath, plugin: str | None = None) -> None:
        location = self.loaded.location_of(path)
        origin = self.loaded.origin_of(path)
        if origin is not None:  # set by a flag, not by the file: say which
            message = f"{message} (set by {origin})"
        if plugin is not None:
            location = dataclasses.replace(location, plugin=plugin)
        self.problems.append(ConfigProblem(message, location))

    # ------------------------------------------------------------------ phase 1

    def lookup_toolset(self, path: KeyPath, spec: ToolsetSpec) -> _Plan | None:
        """Plan a toolset entry (``{mcp: {...}}``): its options live under its own key."""
        component = ComponentSpec(name=spec.toolset, options=spec.options)
        return self.lookup("toolset", (*path, spec.toolset), component, name_path=path)

    def lookup(
        self,
        kind: ComponentKind,
        path: KeyPath,
        spec: ComponentSpec,
        *,
        name_path: KeyPath | None = None,
    ) -> _Plan | None:
        where = name_path if name_path is not None else self.name_path(path)
        try:
            entry = self.registry.get(kind, spec.name)
        except ComponentNotFoundError as error:
            message = f"no {kind} named {spec.name!r}"
            if error.install_hint:
                message = f"{message} ({error.install_hint})"
            elif error.suggestion:
                message += f" (did you mean {error.suggestion!r}?)"
            listed = ", ".join(error.available) if error.available else "(none)"
            self.problem(f"{message}; installed {kind}s: {listed}", where)
            return None
        except AmbiguousComponentError as error:
            choices = ", ".join(f"{plugin}:{error.name}" for plugin in error.plugins)
            self.problem(
                f"{kind} {spec.name!r} is supplied by several plugins "
                f"({', '.join(error.plugins)}); pick one with a qualified name: {choices}",
                where,
            )
            return None
        if kind == "tool" and not isinstance(entry.factory, type):
            if spec.options:
                given = ", ".join(repr(key) for key in spec.options)
                self.problem(
                    f"tool {spec.name!r} is a ready-made tool and takes no options; got {given}",
                    self.option_path(path, (next(iter(spec.options)),)),
                    entry.plugin,
                )
                return None
            return _Plan(kind, path, spec, entry, {})
        exclude = ("tools",) if kind == "toolchain" else ()

        def is_secret(option: KeyPath, value: Any) -> bool:
            return self.loaded.is_secret((*path, *option), value)

        kwargs, problems = check_options(
            entry.factory, spec.options, exclude=exclude, is_secret=is_secret
        )
        for option, message in problems:
            self.problem(message, self.option_path(path, option), entry.plugin)
        if kwargs is None:
            return None
        return _Plan(kind, path, spec, entry, kwargs)

    def declared(self, path: KeyPath, spec: DeclareSpec) -> list[tuple[KeyPath, Tool]] | None:
        """The tools of a declaration (``{declare: {...}}``), each with where it is
        configured; ``None`` after reporting why they cannot be made.
        """
        from gent_core.tools._declarations import (
            DeclarationError,
            load_declarations,
            read_declarations,
        )
        from gent_core.tools._declared import DeclaredTool

        if spec.file is not None:
            where: KeyPath = (*path, "file")
            try:
                found = load_declarations(spec.file)
            except DeclarationError as error:
                self.problem(str(error), where)
                return None
        else:
            where = (*path, "name")
            data: dict[str, Any] = {"name": spec.name, "description": spec.description}
            if spec.parameters is not None:
                data["parameters"] = spec.parameters
            try:
                found = read_declarations(data, source="the declaration")
            except DeclarationError as error:
                self.problem(str(error), (*path, "parameters"))
                return None
        tools: list[tuple[KeyPath, Tool]] = []
        for declaration in found:
            try:
                tool = DeclaredTool(
                    declaration.name,
                    declaration.description,
                    declaration.parameters,
                    result=spec.result,
                    stop=spec.stop,
                )
            except ValueError as error:
                self.problem(str(error), where)
                continue
            tools.append((where, tool))
        return tools

    # ------------------------------------------------------------------ phase 2

    def create(self, plan: _Plan, extra: Mapping[str, Any] | None = None) -> Any:
        factory = plan.entry.factory
        label = f"{plan.kind} {plan.spec.name!r}"
        where = plan.path[:-1] if plan.kind == "toolset" else self.name_path(plan.path)
        if plan.kind == "tool" and not isinstance(factory, type):
            component = factory
        else:
            try:
                component = cast(Callable[..., Any], factory)(**plan.kwargs, **(extra or {}))
            except ConfigError as error:
                if not self.option_problems(plan, label, error):
                    self.problem(f"{label} could not be created: {error}", where, plan.entry.plugin)
                return None
            except Exception as error:  # noqa: BLE001 - any failure is reported, named
                reason = self.loaded.redact(str(error))
                if not isinstance(error, GentError) or not reason:
                    reason = self.loaded.redact(describe_error(error))
                self.problem(
                    f"{label} could not be created: {reason}",
                    where,
                    plan.entry.plugin,
                )
                return None
        if plan.kind == "middleware":
            return self.checked_middleware(component, label, where, plan.entry.plugin)
        contract = _CONTRACTS[plan.kind]
        if not isinstance(component, contract):
            self.problem(
                f"{label} is not a {contract.__name__} (its factory gave a "
                f"{type(component).__name__}); the plugin is broken",
                where,
                plan.entry.plugin,
            )
            return None
        return component

    def option_problems(self, plan: _Plan, label: str, error: ConfigError) -> bool:
        """Report a factory's :class:`ConfigError` whose problems name options by key
        (``schema.properties.age.type``) at those options' lines; ``False`` when they do not.
        """
        if not all(problem.location.key for problem in error.problems):
            return False
        for problem in error.problems:
            option = key_path(problem.location.key or "")
            self.problem(
                f"{label}: {problem.message}",
                self.option_path(plan.path, option),
                plan.entry.plugin,
            )
        return True

    def checked_middleware(
        self, component: object, label: str, where: KeyPath, plugin: str
    ) -> object | None:
        """``component`` if it registers as a plugin (its hook implementations are valid)."""
        from gent_core._plugins.manager import GentPluginManager

        probe = GentPluginManager()
        try:
            probe.register(component, name="middleware")
            probe.check_hook_names(component, "middleware")
        except Exception as error:  # noqa: BLE001 - a broken plugin is reported, named
            self.problem(
                f"{label} is not usable as middleware (its hook implementations are "
                f"invalid): {error}; the plugin is broken",
                where,
                plugin,
            )
            return None
        return component

    def fail_if_problems(self) -> None:
        if self.problems:
            ordered = sorted(self.problems, key=lambda problem: problem.location.line or 0)
            raise ConfigError(problems=ordered) from None


def build_components(
    loaded: LoadedConfig,
    registry: Registry,
    *,
    tools: Sequence[Tool] = (),
    given: Mapping[ComponentKind, Any] | None = None,
) -> Components:
    """Look up, validate and create every component of ``loaded``'s configuration.

    Args:
        loaded: The configuration (see :func:`gent_core._config.load_config`).
        registry: Where components are looked up by name.
        tools: Tools made in code, offered after the configuration's (a name taken by a
            tool of the configuration is reported like a tool listed twice).
        given: Parts supplied as objects (``Agent("llamacpp", format=XMLFormat())``): they
            are used as they are (``None`` for no tool chain), and the configuration's
            entries for those kinds are neither looked up nor created.

    Returns:
        The model, format, tool chain (created with ``tools=`` the tools), termination and
        tools.

    Raises:
        ConfigError: Every problem at once, each with its file, line and key: an unknown
            name (listing the installed ones and the closest), an ambiguous name (listing
            the qualified choices), an invalid option (saying what is accepted), two tools
            with the same name, a factory that raised (naming the component).
    """
    # An import path in an option ("answers:Verdict") may name a module next to the config
    # file, or in the current directory (gent_core._importing).
    with import_search_path(loaded.base_dir, Path.cwd()):
        return _build(loaded, registry, list(tools), dict(given or {}))


@dataclass
class _Plans:
    """Every component of a configuration, looked up and its options checked, not created."""

    parts: dict[ComponentKind, _Plan | None]
    tools: list[_Plan | list[tuple[KeyPath, Tool]] | None]
    """A looked-up tool, the tools of a ``declare`` entry, or ``None`` after a problem."""
    toolsets: list[_Plan | None]
    middleware: list[_Plan | None]


def _build(
    loaded: LoadedConfig,
    registry: Registry,
    code_tools: list[Tool],
    given: dict[ComponentKind, Any],
) -> Components:
    """The two phases of :func:`build_components`: every component is planned (looked up,
    its options checked), and only when no plan has a problem are they created.
    """
    config = loaded.config
    builder = _Builder(loaded, registry)
    plans = _plan(builder, config, given)
    builder.fail_if_problems()
    tools = _create_tools(builder, plans.tools, code_tools, allow_writes=config.allow_writes)
    toolsets, origins = _create_toolsets(builder, plans.toolsets, loaded)
    middleware = [
        component
        for plan in plans.middleware
        if plan is not None and (component := builder.create(plan)) is not None
    ]
    created = {
        kind: builder.create(plan, {"tools": list(tools)} if kind == "toolchain" else None)
        for kind, plan in plans.parts.items()
        if plan is not None
    }
    builder.fail_if_problems()
    created.update(given)
    return Components(
        model=created["model"],
        format=created["format"],
        toolchain=created["toolchain"],
        termination=created["termination"],
        tools=tools,
        toolsets=toolsets,
        toolset_origins=origins,
        middleware=middleware,
    )


def _plan(builder: _Builder, config: AgentConfig, given: dict[ComponentKind, Any]) -> _Plans:
    """Look every component of ``config`` up (but the parts ``given`` as objects); problems
    are collected in ``builder``.
    """
    singles: list[tuple[ComponentKind, KeyPath, ComponentSpec]] = [
        ("model", ("model",), config.model),
        ("format", ("format",), config.format),
        ("termination", ("termination",), config.termination),
        ("toolchain", ("toolchain",), config.toolchain),
    ]
    parts = {
        kind: builder.lookup(kind, path, spec) for kind, path, spec in singles if kind not in given
    }
    tool_plans: list[_Plan | list[tuple[KeyPath, Tool]] | None] = []
    toolset_plans: list[_Plan | None] = []
    for index, entry in enumerate(config.tools):
        if isinstance(entry, ToolsetSpec):
            toolset_plans.append(builder.lookup_toolset(("tools", index), entry))
        elif isinstance(entry, DeclareSpec):
            tool_plans.append(builder.declared(("tools", index, "declare"), entry))
        else:
            tool_plans.append(builder.lookup("tool", ("tools", index), entry))
    middleware_plans = [
        builder.lookup("middleware", ("middleware", index), spec)
        for index, spec in enumerate(config.middleware)
    ]
    return _Plans(parts, tool_plans, toolset_plans, middleware_plans)


def _create_tools(
    builder: _Builder,
    plans: list[_Plan | list[tuple[KeyPath, Tool]] | None],
    code_tools: list[Tool],
    *,
    allow_writes: bool,
) -> list[Tool]:
    """The configuration's tools, created, then the tools made in code; a name given twice
    and a tool that writes without ``allow_writes`` are problems in ``builder``.
    """
    tools: list[Tool] = []
    first: dict[str, KeyPath] = {}
    created_tools: list[tuple[_Plan | None, KeyPath, Tool | None]] = []
    for tool_plan in plans:
        if isinstance(tool_plan, list):
            created_tools += [(None, path, tool) for path, tool in tool_plan]
        elif tool_plan is not None:
            created_tools.append(
                (tool_plan, builder.name_path(tool_plan.path), builder.create(tool_plan))
            )
    for tool_plan, where, tool in created_tools:
        if tool is None:
            continue
        if tool.name in first:
            builder.problem(
                f"tool {tool.name!r} is listed twice (first as "
                f"{'.'.join(str(part) for part in first[tool.name])})",
                where,
            )
            continue
        if tool.writes and not allow_writes:
            builder.problem(
                f"tool {tool.name!r} changes files or other state, so it is available only "
                "when the config enables writing: add 'allow_writes: true'",
                where,
                tool_plan.entry.plugin if tool_plan is not None else None,
            )
            continue
        first[tool.name] = tool_plan.path if tool_plan is not None else where
        tools.append(tool)
    for tool in code_tools:
        if tool.name in first:
            earlier = first[tool.name]
            also = (
                "another tool object"
                if earlier == _CODE_TOOLS
                else ".".join(str(part) for part in earlier)
            )
            builder.problem(
                f"tool {tool.name!r} is given twice: as a tool object, and as {also}; "
                "give each tool once, or rename one",
                earlier,
            )
            continue
        first[tool.name] = _CODE_TOOLS
        tools.append(tool)
    return tools


def _create_toolsets(
    builder: _Builder, plans: list[_Plan | None], loaded: LoadedConfig
) -> tuple[list[Toolset], dict[int, Location]]:
    """The configuration's toolsets, created (named after their entry when they have no
    name), with where each was configured (by ``id``).
    """
    toolsets: list[Toolset] = []
    origins: dict[int, Location] = {}
    for toolset_plan in plans:
        toolset = builder.create(toolset_plan) if toolset_plan is not None else None
        if toolset is None or toolset_plan is None:
            continue
        if not toolset.name:
            toolset.name = toolset_plan.entry.name
        toolsets.append(toolset)
        origins[id(toolset)] = loaded.location_of(toolset_plan.path[:-1])
    return toolsets, origins
