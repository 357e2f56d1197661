"""Where ``gent tools`` and ``gent call`` find tools: installed plugins, and an agent config.

:func:`installed_tools` lists every tool the installed plugins supply (building tool classes
without options where they allow it); :func:`opened_agent` builds the agent of a config and
opens its toolsets (starting MCP servers...) for the duration of a ``with`` block, so the
tools of the toolsets are there too.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gent_core._config.options import options_spec
from gent_core.errors import describe_error
from gent_core.tools.base import Tool

if TYPE_CHECKING:
    from gent_core._agent import Agent
    from gent_core._config import LoadedConfig
    from gent_core._plugins.manager import GentPluginManager
    from gent_core._plugins.registry import ComponentEntry, Registry

__all__ = ["ToolInfo", "agent_tools", "installed_tools", "opened_agent", "tool_info"]


@dataclass
class ToolInfo:
    """One tool as the command line shows it.

    Attributes:
        name: The name to ask for it by (``plugin:name`` when several plugins supply it).
        tool: The tool, or ``None`` when it cannot be built without options.
        plugin: The plugin that supplies it (``None`` for a toolset's tool).
        distribution: That plugin's distribution and version (``gent-tools-basic 0.1.0``).
        toolset: The toolset that supplied it (``mcp git (stdio: ...)``), for a toolset's tool.
        options: The options its class accepts (``gent call --option``); empty for tool
            objects.
        error: Why it could not be built without options.
        entry: Its registry entry, for an installed tool.
    """

    name: str
    tool: Tool | None
    plugin: str | None = None
    distribution: str | None = None
    toolset: str | None = None
    options: list[str] = field(default_factory=list)
    error: str | None = None
    entry: ComponentEntry | None = None

    @property
    def description(self) -> str:
        """The tool's description (the class's, when it could not be built)."""
        if self.tool is not None:
            return self.tool.description
        factory = self.entry.factory if self.entry is not None else None
        return str(getattr(factory, "description", "") or "")

    @property
    def parameters(self) -> dict[str, Any] | None:
        """The argument schema, or ``None`` when unknown (the tool could not be built)."""
        return self.tool.parameters if self.tool is not None else None


def _distribution(manager: GentPluginManager | None, plugin: str) -> str | None:
    info = manager.plugin_infos.get(plugin) if manager is not None else None
    if info is None or info.distribution is None:
        return None
    return f"{info.distribution} {info.version}" if info.version else info.distribution


def tool_info(
    entry: ComponentEntry, name: str, manager: GentPluginManager | None = None
) -> ToolInfo:
    """Describe one installed tool, building it without options if it is a class."""
    factory = entry.factory
    info = ToolInfo(
        name, None, plugin=entry.plugin, distribution=_distribution(manager, entry.plugin)
    )
    info.entry = entry
    if isinstance(factory, Tool):
        info.tool = factory
        return info
    spec = options_spec(factory)
    info.options = list(spec.names)
    try:
        built = factory()
    except Exception as error:  # noqa: BLE001 - a tool needing options is listed anyway
        info.error = f"cannot be built without options: {describe_error(error)}"
        return info
    if isinstance(built, Tool):
        info.tool = built
    else:
        info.error = f"its factory returned {type(built).__name__}, not a Tool"
    return info


def installed_tools(registry: Registry, manager: GentPluginManager | None = None) -> list[ToolInfo]:
    """Every installed tool, sorted by name (qualified where several plugins supply one)."""
    entries = registry.entries("tool")
    counts: dict[str, int] = {}
    for entry in entries:
        counts[entry.name] = counts.get(entry.name, 0) + 1
    infos = [
        tool_info(entry, entry.qualified_name if counts[entry.name] > 1 else entry.name, manager)
        for entry in entries
    ]
    return sorted(infos, key=lambda info: info.name)


@contextlib.asynccontextmanager
async def opened_agent(loaded: LoadedConfig) -> AsyncIterator[Agent]:
    """The agent of ``loaded``, its toolsets open (closed again when the block ends).

    Raises:
        ConfigError: A bad config.
        ToolsetError: A toolset that cannot be opened.
    """
    from gent_core._agent import Agent

    agent = Agent.from_config(loaded)
    try:
        await agent.open()
        yield agent
    finally:
        await agent.aclose()


def agent_tools(agent: Agent) -> list[ToolInfo]:
    """The tools of an opened agent's toolsets, in the order they were added."""
    return [
        ToolInfo(name, agent.toolchain.get_tool(name), toolset=toolset.describe())
        for name, toolset in agent.toolset_tools.items()
        if agent.toolchain is not None and agent.toolchain.get_tool(name) is not None
    ]
