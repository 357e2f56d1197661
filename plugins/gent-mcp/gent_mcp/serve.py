"""Serving gent tools as an MCP server (what ``gent mcp-serve CONFIG`` runs).

Every tool of an agent — the tools its config lists *and* the tools of its toolsets (so gent
can gather several MCP servers and gent tool packages behind one endpoint) — is offered with
its own JSON Schema as the MCP input schema. Calls run through the tool chain's execution
engine, exactly as in an agent run: argument validation and coercion, the tool's timeout,
lifecycle hooks and approval policy, clipboard path checks, and errors as error results.

How a :class:`~gent_core.tools.ToolResult` becomes MCP content:

* the output: a string is one text block; any other value is written as JSON in a text
  block and, when it is a JSON object, also given as ``structuredContent``;
* ``media`` images: image blocks;
* ``clipboard_text``: embedded text resources (``gent://clipboard/<n>``), so an MCP client
  that is itself gent puts them back on its clipboard when they are long;
* ``clipboard_files``: the file's text as an embedded resource (``file://`` URI) when it is
  UTF-8 text of at most 256 KiB, else a resource link to it;
* an error: ``isError: true`` with the model-facing message as text. Whatever a tool raises
  is its call's error, ``KeyboardInterrupt`` included: it never ends the server for the other
  clients.

An unknown tool name is a protocol error (``-32602``), as the MCP specification asks.
"""

from __future__ import annotations

import base64
import mimetypes
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gent_core import execute_calls
from gent_core.bounds import dumps_json, to_json_data
from gent_core.context import ExecutionContext
from gent_core.toolchain import ToolCall

if TYPE_CHECKING:
    import mcp_types
    from mcp.server.lowlevel import Server

    from gent_core import Agent
    from gent_core.tools.base import Tool
    from gent_core.tools.result import ToolResult

__all__ = ["MAX_EMBEDDED_FILE_BYTES", "build_server", "mcp_tool_name", "to_call_tool_result"]

MAX_EMBEDDED_FILE_BYTES = 256 * 1024
"""Largest clipboard file whose text is embedded in a result (larger ones are linked)."""


def mcp_tool_name(name: str) -> str:
    """The MCP name of a gent tool.

    ``:`` (in namespaced toolset tools, ``git:git_status``) becomes ``.``, which MCP tool
    names allow.
    """
    return name.replace(":", ".")


def _describe_tool(tool: Tool) -> mcp_types.Tool:
    from mcp_types import Tool as MCPToolInfo
    from mcp_types import ToolAnnotations

    return MCPToolInfo(
        name=mcp_tool_name(tool.name),
        description=tool.description,
        input_schema=tool.parameters,
        annotations=ToolAnnotations(
            read_only_hint=not tool.writes,
            destructive_hint=tool.writes,
            open_world_hint=None,
        ),
    )


def _file_content(path: Path, shown: str) -> Any:
    from mcp_types import EmbeddedResource, ResourceLink, TextResourceContents

    mime_type = mimetypes.guess_type(path.name)[0] or "text/plain"
    uri = path.resolve().as_uri()
    size: int | None = None
    try:
        size = path.stat().st_size
        if size <= MAX_EMBEDDED_FILE_BYTES:
            text = path.read_bytes().decode("utf-8")
            return EmbeddedResource(
                resource=TextResourceContents(uri=uri, mime_type=mime_type, text=text)
            )
    except (OSError, UnicodeDecodeError):
        pass  # not readable as text: linked
    return ResourceLink(name=shown, uri=uri, mime_type=mime_type, size=size)


def to_call_tool_result(result: ToolResult, working_directory: Path) -> mcp_types.CallToolResult:
    """Map a gent tool result to MCP content (see the module docstring)."""
    from mcp_types import (
        CallToolResult,
        EmbeddedResource,
        ImageContent,
        TextContent,
        TextResourceContents,
    )

    content: list[Any] = []
    structured: Any = None
    if not result.ok:
        message = result.error.model_message if result.error is not None else "the tool failed"
        content.append(TextContent(text=message))
    elif isinstance(result.output, str):
        content.append(TextContent(text=result.output))
    elif result.output is not None:
        data = to_json_data(result.output)
        content.append(TextContent(text=dumps_json(data)))
        if isinstance(data, dict):
            structured = data
    for image in result.media:
        content.append(
            ImageContent(
                data=base64.b64encode(image.data).decode("ascii"), mime_type=image.media_type
            )
        )
    for index, text in enumerate(result.clipboard_text, start=1):
        content.append(
            EmbeddedResource(
                resource=TextResourceContents(
                    uri=f"gent://clipboard/{index}", mime_type="text/plain", text=text
                )
            )
        )
    for path in result.clipboard_files:
        content.append(_file_content(working_directory / path, str(path)))
    return CallToolResult(content=content, structured_content=structured, is_error=not result.ok)


def build_server(agent: Agent) -> Server[Any]:
    """An MCP server (low-level SDK ``Server``) offering ``agent``'s tools.

    The agent must be open (:meth:`Agent.open <gent_core.Agent.open>`) so the tools
    of its toolsets are there.

    Raises:
        GentError: When the agent has no tool chain (so no tools to serve).
    """
    from mcp import MCPError
    from mcp.server.lowlevel import Server
    from mcp_types import INVALID_PARAMS, CallToolResult, ListToolsResult

    from gent_core import __version__
    from gent_core.errors import GentError

    chain = agent.toolchain
    if chain is None:
        raise GentError(
            "the agent has no tool chain, so there are no tools to serve",
            hint="Add a toolchain (e.g. 'toolchain: json') and tools to the config.",
        )

    hooks = agent.run_hooks()  # the approval policy and middleware of the config, too

    async def list_tools(context: Any, params: Any) -> ListToolsResult:
        return ListToolsResult(tools=[_describe_tool(tool) for tool in chain.tools])

    async def call_tool(context: Any, params: mcp_types.CallToolRequestParams) -> CallToolResult:
        names = {mcp_tool_name(tool.name): tool.name for tool in chain.tools}
        name = names.get(params.name)
        if name is None:
            raise MCPError(
                code=INVALID_PARAMS,
                message=f"Unknown tool: {params.name}. Available tools: "
                + (", ".join(names) or "(none)"),
            )
        execution = ExecutionContext(
            working_directory=agent.working_directory,
            limits=agent.limits,
            plugin_manager=hooks,
            interrupt_stops=False,  # a tool raising KeyboardInterrupt fails its call only
        )
        call = ToolCall(name, dict(params.arguments or {}), "call_0")
        outcome = await execute_calls(chain, [call], agent.format, execution)
        return to_call_tool_result(outcome.results[0], agent.working_directory)

    return Server(
        "gent",
        version=__version__,
        instructions="Tools served by gent (gent mcp-serve).",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )
