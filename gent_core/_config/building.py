"""What an :class:`~gent_core._agent.Agent` is built from: its parts resolved from
``Agent(...)``'s arguments (names, names with options, objects), and every constructor
argument from a loaded config. The agent only takes what this module resolves, so building
from plugin names and config files stays in the configuration layer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

from gent_core._path_probe import probe_path
from gent_core.errors import Location
from gent_core.formats import TextFormat
from gent_core.model import Model
from gent_core.termination import Termination
from gent_core.toolchain import ToolChain
from gent_core.tools.base import Tool
from gent_core.toolsets import Toolset

if TYPE_CHECKING:
    from gent_core._config.approval import ApprovalPolicy
    from gent_core._config.loading import LoadedConfig
    from gent_core._config.models import AgentConfig
    from gent_core._config.prompt import PromptParts
    from gent_core._plugins.manager import GentPluginManager
    from gent_core._plugins.registry import Registry
    from gent_core.context import Limits

__all__ = ["AgentArguments", "AgentParts", "agent_arguments", "resolve_parts"]


@dataclass
class AgentParts:
    """The parts of an agent, resolved from ``Agent(...)``'s arguments."""

    model: Model
    format: TextFormat
    toolchain: ToolChain | None
    termination: Termination
    tools: list[Tool]
    toolsets: list[Toolset] = field(default_factory=list)
    """Toolsets written as ``tools`` entries (``{"mcp": {...}}``)."""
    toolset_origins: dict[int, Location] = field(default_factory=dict)


def _is_tool(value: object) -> TypeGuard[Tool]:
    return isinstance(value, Tool)


def resolve_parts(
    model: object,
    format: object,
    toolchain: object,
    termination: object,
    tools: Sequence[object],
    allow_writes: bool,
) -> AgentParts:
    """``Agent(...)``'s parts: the objects as they are; names (and parts left out) looked up
    among the installed plugins (the process-wide plugin manager's registry) only when there
    are any (see :mod:`gent_core._config.arguments`).

    Raises:
        ConfigError: Every problem at once, keyed by the argument.
    """
    if (
        isinstance(model, Model)
        and isinstance(format, TextFormat)
        and (isinstance(toolchain, ToolChain) or (toolchain is None and not tools))
        and (termination is None or isinstance(termination, Termination))
        and all(isinstance(tool, Tool) for tool in tools)
    ):
        if termination is None:  # the built-in agent's "text", without a lookup
            from gent_core._terminations.text import TextTermination

            termination = TextTermination()
        return AgentParts(model, format, toolchain, termination, [t for t in tools if _is_tool(t)])
    from gent_core._config.arguments import build_parts
    from gent_core._plugins.manager import get_plugin_manager
    from gent_core._plugins.registry import ComponentKind, Registry

    registry = Registry.from_plugin_manager(get_plugin_manager())
    parts: dict[ComponentKind, object] = {
        "model": model,
        "format": format,
        "toolchain": toolchain,
        "termination": termination,
    }
    built = build_parts(parts, tools, registry, allow_writes=allow_writes)
    return AgentParts(
        built.model,
        built.format,
        built.toolchain,
        built.termination,
        built.tools,
        built.toolsets,
        dict(built.toolset_origins),
    )


@dataclass
class AgentArguments:
    """The arguments of ``Agent(...)`` that a loaded config gives (each named as the
    constructor's), plus where each toolset was configured.
    """

    model: Model
    format: TextFormat
    toolchain: ToolChain | None
    termination: Termination
    toolsets: list[Toolset]
    toolset_origins: dict[int, Location]
    allow_writes: bool
    middleware: list[object]
    thinking: bool
    limits: Limits
    working_directory: Path | None
    plugin_manager: GentPluginManager
    prompt: PromptParts
    approval: ApprovalPolicy | None
    redact: Callable[[str], str]
    config_summary: dict[str, Any]
    config_file: str | None


def approval_policy(
    config: AgentConfig, ask_callback: Callable[..., bool] | None
) -> ApprovalPolicy | None:
    """The config's approval policy; ``None`` when it allows every call."""
    from gent_core._config.approval import ApprovalPolicy

    approval = config.approval
    if not (approval.deny or approval.ask or approval.default != "allow"):
        return None
    return ApprovalPolicy(
        allow=approval.allow,
        deny=approval.deny,
        ask=approval.ask,
        default=approval.default,
        ask_callback=ask_callback,
    )


def prompt_parts(config: AgentConfig) -> PromptParts:
    """The config's overrides of the system prompt's parts."""
    from gent_core._config.prompt import PromptParts

    return PromptParts(
        role=config.prompt.role,
        instructions=config.prompt.instructions,
        extra_rules=tuple(config.prompt.rules),
        append=config.prompt.append,
    )


def agent_arguments(
    loaded: LoadedConfig,
    *,
    registry: Registry | None = None,
    plugin_manager: GentPluginManager | None = None,
    ask_callback: Callable[..., bool] | None = None,
    tools: Sequence[Tool | Callable[..., Any]] = (),
) -> AgentArguments:
    """Every argument of the agent ``loaded`` describes, its components looked up by plugin
    name (the arguments of :meth:`Agent.from_config <gent_core._agent.Agent.from_config>`).

    Raises:
        ConfigError: Naming the file, line and key of a bad setting.
    """
    from gent_core._config.build import build_components
    from gent_core._plugins.manager import get_plugin_manager
    from gent_core._plugins.registry import Registry
    from gent_core.tools._function import tool as make_tool

    manager = plugin_manager or get_plugin_manager()
    code_tools = [item if isinstance(item, Tool) else make_tool(item) for item in tools]
    components = build_components(
        loaded, registry or Registry.from_plugin_manager(manager), tools=code_tools
    )
    config = loaded.config
    return AgentArguments(
        model=components.model,
        format=components.format,
        toolchain=components.toolchain,
        termination=components.termination,
        toolsets=components.toolsets,
        toolset_origins=dict(components.toolset_origins),
        allow_writes=config.allow_writes,
        middleware=components.middleware,
        thinking=config.thinking,
        limits=config.limits_object(),
        working_directory=config.working_directory,
        plugin_manager=manager,
        prompt=prompt_parts(config),
        approval=approval_policy(config, ask_callback),
        redact=loaded.redact,
        config_summary=loaded.redacted_dict(),
        config_file=loaded.source if probe_path(loaded.source).is_file else None,
    )
