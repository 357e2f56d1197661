"""A tool under another name: how colliding names from toolsets are namespaced."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gent_core.tools.base import Tool

if TYPE_CHECKING:
    from gent_core.context import ExecutionContext
    from gent_core.tools.result import ToolResult

__all__ = ["RenamedTool"]


class RenamedTool(Tool):
    """``tool`` exposed to the model as ``name``; everything else is delegated.

    Args:
        tool: The tool to expose.
        name: The name the model writes to call it (``"git:git_status"``).
    """

    def __init__(self, tool: Tool, name: str) -> None:
        self.inner = tool
        self.name = name
        self.description = tool.description
        self.timeout = tool.timeout
        self.writes = tool.writes
        self.examples = tool.examples

    @property
    def parameters(self) -> dict[str, Any]:
        """The wrapped tool's argument schema."""
        return self.inner.parameters

    def validate_arguments(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Validate with the wrapped tool."""
        return self.inner.validate_arguments(arguments)

    async def call(self, arguments: Mapping[str, Any], context: ExecutionContext) -> ToolResult:
        """Run the wrapped tool."""
        return await self.inner.call(arguments, context)
