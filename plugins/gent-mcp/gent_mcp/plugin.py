"""The ``mcp`` plugin: the ``mcp`` toolset and the ``gent mcp-serve`` command.

Nothing from the MCP SDK is imported here; it is imported when a server is started or
served, so ``gent --help`` and ``gent plugins`` stay fast.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from gent_core import Command
from gent_core.hookspecs import hookimpl

if TYPE_CHECKING:  # annotations only: loading the plugin stays light
    from gent_core.toolsets import Toolset


@hookimpl
def gent_register_toolsets() -> Mapping[str, Callable[..., Toolset]]:
    """Supply the ``mcp`` toolset (the tools of one MCP server)."""
    from gent_mcp.toolset import MCPToolset

    return {"mcp": MCPToolset}


@hookimpl
def gent_register_commands() -> Mapping[str, Command]:
    """Supply ``gent mcp-serve CONFIG``."""
    return {
        "mcp-serve": Command(
            "gent_mcp.serve_command", "serve an agent config's tools as an MCP server"
        )
    }
