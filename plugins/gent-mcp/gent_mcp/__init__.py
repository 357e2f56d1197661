"""gent-mcp: tools from any MCP server for gent agents, and gent tools for any MCP client.

* :class:`~gent_mcp.toolset.MCPToolset` (component ``mcp``, a toolset): starts an MCP server
  over stdio or connects to one over streamable HTTP, and offers its tools to the agent.
* ``gent mcp-serve CONFIG`` (:mod:`gent_mcp.serve`): serves the tools of an agent config as an
  MCP server.

Imports are lazy, so loading the plugin does not import the MCP SDK.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core import export_names, load_export

__version__ = "0.1.0"

_EXPORTS = {
    "MCPOptions": "gent_mcp.options",
    "MCPTool": "gent_mcp.tool",
    "MCPToolset": "gent_mcp.toolset",
}

if TYPE_CHECKING:
    from gent_mcp.options import MCPOptions
    from gent_mcp.tool import MCPTool
    from gent_mcp.toolset import MCPToolset

__all__ = ["MCPOptions", "MCPTool", "MCPToolset", "__version__"]


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())
