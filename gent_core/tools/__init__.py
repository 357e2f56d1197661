"""Tools: the :class:`Tool` contract, the ways to write one, and :class:`ToolResult`.

* :func:`tool` turns a typed function (sync or async) into a :class:`FunctionTool`;
* :class:`BaseTool` is for tools with a hand-written JSON Schema;
* :class:`DeclaredTool` is a schema with no code behind it (a stub result, or a recorded call
  that stops the run), read from OpenAI, MCP or function-doc declarations
  (:func:`read_declarations`, :func:`load_declarations`);
* :class:`Toolbox` groups method tools that share configuration or state;
* :func:`describe_tool` renders a tool on one line for prompts;
* schema helpers for tools built from foreign declarations (an MCP server's):
  :func:`clean_schema` and :func:`check_tool_name`, and the
  model-facing text of bad arguments (:func:`arguments_error`, :func:`not_an_object_problem`);
* :func:`set_max_tool_threads` bounds the worker threads that run sync tools (process-wide).

See ``docs/tools.md`` for a guide. Names load lazily (PEP 562), so importing the contract
(:mod:`gent_core.tools.base`, :mod:`gent_core.tools.result`) does not import pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core._lazy import export_names, load_export

_EXPORTS: dict[str, str] = {
    "ArgumentProblem": "gent_core.tools._arguments",
    "BaseTool": "gent_core.tools._basetool",
    "DeclaredTool": "gent_core.tools._declared",
    "FunctionTool": "gent_core.tools._function",
    "RenamedTool": "gent_core.tools._renamed",
    "SchemaValidator": "gent_core.tools._validator",
    "Tool": "gent_core.tools.base",
    "ToolExample": "gent_core.tools.base",
    "ToolResult": "gent_core.tools.result",
    "ToolStatus": "gent_core.tools.result",
    "Toolbox": "gent_core.tools._toolbox",
    "describe_signature": "gent_core.tools._describe",
    "describe_tool": "gent_core.tools._describe",
    "describe_tools": "gent_core.tools._describe",
    "DeclarationError": "gent_core.tools._declarations",
    "load_declarations": "gent_core.tools._declarations",
    "read_declarations": "gent_core.tools._declarations",
    "standard_schema": "gent_core.tools._declarations",
    "set_max_tool_threads": "gent_core.tools._threads",
    "tool": "gent_core.tools._function",
    # schema helpers
    "arguments_error": "gent_core.tools._arguments",
    "check_tool_name": "gent_core.tools._function",
    "clean_schema": "gent_core.tools._schema",
    "not_an_object_problem": "gent_core.tools._arguments",
}

if TYPE_CHECKING:
    from gent_core.tools._arguments import ArgumentProblem, arguments_error, not_an_object_problem
    from gent_core.tools._basetool import BaseTool
    from gent_core.tools._declarations import (
        DeclarationError,
        load_declarations,
        read_declarations,
        standard_schema,
    )
    from gent_core.tools._declared import DeclaredTool
    from gent_core.tools._describe import describe_signature, describe_tool, describe_tools
    from gent_core.tools._function import FunctionTool, check_tool_name, tool
    from gent_core.tools._renamed import RenamedTool
    from gent_core.tools._schema import clean_schema
    from gent_core.tools._threads import set_max_tool_threads
    from gent_core.tools._toolbox import Toolbox
    from gent_core.tools._validator import SchemaValidator
    from gent_core.tools.base import Tool, ToolExample
    from gent_core.tools.result import ToolResult, ToolStatus

__all__ = [
    "DeclarationError",
    "ArgumentProblem",
    "BaseTool",
    "DeclaredTool",
    "FunctionTool",
    "RenamedTool",
    "SchemaValidator",
    "Tool",
    "ToolExample",
    "ToolResult",
    "ToolStatus",
    "Toolbox",
    "arguments_error",
    "check_tool_name",
    "clean_schema",
    "describe_signature",
    "describe_tool",
    "describe_tools",
    "load_declarations",
    "not_an_object_problem",
    "read_declarations",
    "set_max_tool_threads",
    "standard_schema",
    "tool",
]


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())
