"""One tool of an MCP server, as a gent :class:`~gent_core.tools.Tool`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gent_core.errors import Location, ToolExecutionError
from gent_core.tools import (
    SchemaValidator,
    arguments_error,
    describe_signature,
    not_an_object_problem,
)
from gent_core.tools.base import Tool
from gent_core.tools.result import ToolResult
from gent_mcp.results import to_tool_result

if TYPE_CHECKING:
    from gent_core.context import ExecutionContext
    from gent_mcp.connection import ServerConnection

__all__ = ["MCPTool"]


class MCPTool(Tool):
    """A tool whose calls go to an MCP server.

    Arguments are checked against the server's input schema with gent's own validator
    (:class:`~gent_core.tools.SchemaValidator`) before anything is sent, so the
    model gets the same worded argument errors as for any gent tool.

    Args:
        connection: The server's connection.
        remote_name: The tool's name on the server.
        name: The tool's name for the model (``remote_name`` unless it had to be changed to
            be a valid gent tool name).
        description: What the tool does (the server's description).
        parameters: The argument schema (the server's input schema, tidied).
        validator: The validator built from ``parameters``.
        timeout: Seconds a call may take (``None``: the run's default).
        writes: Whether the tool changes files or other state.
        inline_limit: Longest embedded text resource put in the output.
    """

    def __init__(
        self,
        connection: ServerConnection,
        remote_name: str,
        *,
        name: str,
        description: str,
        parameters: dict[str, Any],
        validator: SchemaValidator,
        timeout: float | None,
        writes: bool,
        inline_limit: int,
    ) -> None:
        self.connection = connection
        self.remote_name = remote_name
        self.name = name
        self.description = description
        self._parameters = parameters
        self._validator = validator
        self.timeout = timeout
        self.writes = writes
        self.inline_limit = inline_limit

    @property
    def parameters(self) -> dict[str, Any]:
        """The server's input schema."""
        return self._parameters

    def validate_arguments(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Validate and coerce ``arguments`` against the input schema.

        Raises:
            InvalidToolArgumentsError: Naming each bad, unknown or missing argument.
        """
        candidate: object = arguments
        if not isinstance(candidate, Mapping):
            problems = [not_an_object_problem(candidate)]
        else:
            value, problems = self._validator.validate(dict(candidate))
            if not problems:
                return dict(value)
        raise arguments_error(self.name, problems, signature=describe_signature(self))

    async def call(self, arguments: Mapping[str, Any], context: ExecutionContext) -> ToolResult:
        """Send the call to the server and map its result (see :mod:`gent_mcp.results`).

        A protocol error from the server (an unknown tool, invalid parameters...), a reply
        that could not be read and a server that is gone become error results; nothing is
        raised for them.
        """
        from mcp import MCPError

        from gent_mcp.connection import ServerGoneError, UnreadableReplyError

        try:
            result = await self.connection.call(self.remote_name, dict(arguments))
        except (ServerGoneError, UnreadableReplyError) as error:
            return ToolResult.failure(error)
        except MCPError as error:
            server = self.connection.label
            return ToolResult.failure(
                ToolExecutionError(
                    f"MCP server {server!r} refused the call to {self.remote_name!r}: "
                    f"{error.message} (error {error.code})",
                    location=Location(tool=self.name),
                    model_message=f"Tool {self.name!r} failed: {error.message}",
                )
            )
        return to_tool_result(
            result, tool=self.name, server=self.connection.label, inline_limit=self.inline_limit
        )
