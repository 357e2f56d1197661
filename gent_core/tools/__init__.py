"""Tools: the :class:`Tool` contract and :class:`ToolResult`."""

from gent_core.tools.base import Tool
from gent_core.tools.result import ToolResult, ToolStatus

__all__ = ["Tool", "ToolResult", "ToolStatus"]
