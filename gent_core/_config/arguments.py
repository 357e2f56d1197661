"""An agent's parts from the arguments of ``Agent(...)``: plugin names, options and objects.

::

    Agent("llamacpp", format="xml", toolchain="json", tools=["calculator", word_count])

Each part (model, format, tool chain, termination) is one of:

* a plugin name: ``"openai"``, ``"gent-openai:openai"``;
* a name with options: ``("openai", {"model": "gpt-4o-mini"})``,
  ``{"openai": {"model": "gpt-4o-mini"}}``, or the config file's form
  ``{"name": "openai", "model": "gpt-4o-mini"}``;
* an object of the part's contract class (a :class:`~gent_core.model.Model`...), used as it is;
* left out (``None``): the built-in agent's (:func:`~gent_core._config.default_config`); the
  tool chain only when there are tools.

Each entry of ``tools`` is what a config file's ``tools`` list takes (a name, a mapping with
options, ``{declare: ...}``, a toolset ``{mcp: {...}}``), a ``(name, {options})`` pair, a
:class:`~gent_core.tools.base.Tool` object, or a plain function (made a tool by
:func:`~gent_core.tools.tool`). Names go through the very lookup and checks of a config file
(:func:`~gent_core._config.build.build_components`): an unknown name lists the installed
ones and the closest, options are checked against the component's own, every problem is
reported at once, keyed by the argument (``key 'format'``, ``key 'tools.1'``).
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

from gent_core._config.build import Components, build_components
from gent_core._config.loading import config_from_data
from gent_core._config.yamldoc import KeyPath
from gent_core._plugins.registry import ComponentKind, Registry
from gent_core.errors import ConfigError, ConfigProblem, Location
from gent_core.formats import TextFormat
from gent_core.model import Model
from gent_core.termination import Termination
from gent_core.toolchain import ToolChain
from gent_core.tools.base import Tool

__all__ = ["PART_KINDS", "PartSpec", "build_parts", "default_specs"]

PartSpec: TypeAlias = str | tuple[str, Mapping[str, Any]] | Mapping[str, Any]
"""A part named by plugin: ``"name"``, ``("name", {options})``, ``{"name": {options}}``."""

PART_KINDS: dict[ComponentKind, type] = {
    "model": Model,
    "format": TextFormat,
    "toolchain": ToolChain,
    "termination": Termination,
}
"""The parts of an agent, each with its contract class."""

_ACCEPTED = "a plugin name, (name, {options}), {name: {options}} or a %s object"
_ACCEPTED_TOOL = (
    "a tool name, (name, {options}), a config file's tools entry ({name: ..., <options>}, "
    "{declare: ...}, {<toolset>: {...}}), a Tool object or a function"
)


def build_parts(
    parts: Mapping[ComponentKind, object],
    tools: Sequence[object],
    registry: Registry,
    *,
    allow_writes: bool,
) -> Components:
    """Resolve ``Agent(...)``'s parts and tools (see the module's docstring).

    Args:
        parts: ``model``, ``format``, ``toolchain`` and ``termination`` as given (``None``
            when left out).
        tools: The ``tools`` argument.
        registry: Where names are looked up.
        allow_writes: Whether named tools that change files may be used (the agent's
            setting).

    Returns:
        The parts; the tool chain (``None`` when there are no tools and none was named)
        offers the named tools, then the tool objects.

    Raises:
        ConfigError: Every problem at once, keyed by the argument: a value of the wrong
            kind, an unknown or ambiguous name, a wrong option, a tool given twice.
    """
    defaults = default_specs()
    problems: list[ConfigProblem] = []
    data: dict[str, Any] = {"allow_writes": allow_writes}
    given: dict[ComponentKind, Any] = {}
    for kind, value in parts.items():
        if value is None and kind == "toolchain" and not tools:
            given[kind] = None
            value = defaults[kind]  # validated, never looked up
        elif value is None:
            value = defaults[kind]
        elif isinstance(value, PART_KINDS[kind]):
            given[kind] = value
            value = defaults[kind]  # validated, never looked up
        data[kind] = _part_data(value, (kind,), PART_KINDS[kind].__name__, problems)
    entries: list[Any] = []
    code_tools: list[Tool] = []
    aliases: dict[KeyPath, KeyPath] = {}
    for index, entry in enumerate(tools):
        if isinstance(entry, Tool):
            code_tools.append(entry)
        elif inspect.isfunction(entry):
            from gent_core.tools._function import tool

            code_tools.append(tool(entry))
        else:
            aliases[("tools", len(entries))] = ("tools", index)
            entries.append(_tool_data(entry, ("tools", index), problems))
    data["tools"] = entries
    if problems:
        raise ConfigError(problems=problems)
    loaded = config_from_data(data, aliases=aliases)
    return build_components(loaded, registry, tools=code_tools, given=given)


def default_specs() -> dict[ComponentKind, Any]:
    """The built-in agent's parts, as config entries (``{"model": ComponentSpec(...)...}``)."""
    from gent_core._config.default import default_config

    config = default_config().config
    return {kind: getattr(config, kind) for kind in PART_KINDS}


def _part_data(value: object, where: KeyPath, contract: str, problems: list[ConfigProblem]) -> Any:
    """``value`` as a config file would write it, or a problem saying what is accepted."""
    if isinstance(value, str) or _is_spec_object(value):
        return value
    if isinstance(value, tuple):
        return _pair(value, where, _ACCEPTED % contract, problems)
    if isinstance(value, Mapping):
        if "name" not in value and len(value) == 1:
            ((name, options),) = value.items()
            if isinstance(name, str) and (options is None or isinstance(options, Mapping)):
                return {"name": name, "options": dict(options or {})}
        return dict(value)
    _problem(problems, where, f"expected {_ACCEPTED % contract}; got {_shown(value)}")
    return None


def _tool_data(value: object, where: KeyPath, problems: list[ConfigProblem]) -> Any:
    """A ``tools`` entry as a config file would write it, or a problem."""
    if isinstance(value, str) or _is_spec_object(value):
        return value
    if isinstance(value, tuple):
        return _pair(value, where, _ACCEPTED_TOOL, problems)
    if isinstance(value, Mapping):
        return dict(value)
    _problem(problems, where, f"expected {_ACCEPTED_TOOL}; got {_shown(value)}")
    return None


def _pair(
    value: tuple[Any, ...], where: KeyPath, accepted: str, problems: list[ConfigProblem]
) -> Any:
    """``("name", {options})`` as ``{"name": ..., "options": {...}}``."""
    if len(value) == 2 and isinstance(value[0], str) and isinstance(value[1], Mapping):
        return {"name": value[0], "options": dict(value[1])}
    _problem(
        problems,
        where,
        f"expected {accepted}; got a tuple of {len(value)} item(s) "
        "(a pair is written (name, {options}))",
    )
    return None


def _is_spec_object(value: object) -> bool:
    from gent_core._config.models import ComponentSpec, DeclareSpec, ToolsetSpec

    return isinstance(value, ComponentSpec | ToolsetSpec | DeclareSpec)


def _shown(value: object) -> str:
    """A short description of a wrong value (its type, and what it is when short)."""
    text = repr(value)
    kind = type(value).__name__
    return f"{kind} {text}" if len(text) <= 40 else f"a {kind}"


def _problem(problems: list[ConfigProblem], where: KeyPath, message: str) -> None:
    key = ".".join(str(part) for part in where)
    problems.append(ConfigProblem(message, Location(key=key)))
