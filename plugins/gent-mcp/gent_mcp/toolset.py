"""The ``mcp`` toolset: the tools of one MCP server, for the life of an agent."""

from __future__ import annotations

import fnmatch
import logging
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gent_core.config import parse_options_model
from gent_core.errors import GentError, describe_error
from gent_core.tools import SchemaValidator, check_tool_name, clean_schema
from gent_core.toolsets import Toolset
from gent_mcp.options import MCPOptions

if TYPE_CHECKING:
    import mcp_types

    from gent_core.tools.base import Tool
    from gent_mcp.connection import ServerConnection
    from gent_mcp.tool import MCPTool

__all__ = ["MCPToolset"]

logger = logging.getLogger("gent.mcp")

_INVALID_NAME_CHARACTERS = re.compile(r"[^A-Za-z0-9_.-]")


def _is_tool_name(name: str) -> bool:
    """Whether gent accepts ``name`` as a tool name as it is."""
    try:
        check_tool_name(name)
    except ValueError:
        return False
    return True


def gent_tool_name(remote: str) -> str:
    """A valid gent tool name for the MCP tool name ``remote``: the same name whenever it is
    valid (``git.status`` included: gent tool names hold dots), so the model sees the name the
    server gives.

    A name gent cannot hold (more than 64 characters, a space, a ``/``...) has each other
    character written ``_`` (dots too, where a dot is not allowed), a leading ``_`` when it
    does not start with a letter, and is cut at 64 characters; the toolset says so in a
    warning when it opens, naming both.
    """
    if _is_tool_name(remote):
        return remote
    name = _INVALID_NAME_CHARACTERS.sub("_", remote)
    if not name or not (name[0].isalpha() or name[0] == "_"):
        name = f"_{name}"
    name = name[:64]
    if not _is_tool_name(name):  # a dot where gent allows none (a.9, a..b, a.)
        name = name.replace(".", "_")
    return name


def declares_writes(annotations: mcp_types.ToolAnnotations | None) -> bool:
    """Whether a tool's MCP annotations say it changes its environment.

    ``readOnlyHint: false`` or ``destructiveHint: true`` (without ``readOnlyHint: true``)
    mark a writing tool. Without annotations, or with hints that say nothing about it, the
    tool counts as not writing: gent follows what the server declares.
    """
    if annotations is None or annotations.read_only_hint is True:
        return False
    return annotations.read_only_hint is False or annotations.destructive_hint is True


class MCPToolset(Toolset):
    """The tools of one MCP server, started over stdio or reached over streamable HTTP.

    Configured as a ``tools`` entry of an agent config (options: see
    :class:`~gent_mcp.options.MCPOptions`)::

        tools:
          - mcp: {name: git, command: [python, -m, mcp_server_git, --repository, .]}

    :meth:`open` starts the server, lists its tools and returns them as gent tools (the
    server's input schema is each tool's ``parameters``); :meth:`aclose` stops it. Both may be
    called from different tasks of one event loop, and more than once.

    Args:
        **options: The options; see :class:`~gent_mcp.options.MCPOptions`.

    Raises:
        ConfigError: When the options are not valid.
    """

    Options = MCPOptions

    def __init__(self, **options: Any) -> None:
        self.options = parse_options_model(MCPOptions, options, plugin="mcp", kind="toolset")
        self.name = self.options.name
        self._connection: ServerConnection | None = None
        self._tools: list[MCPTool] = []
        self.skipped: dict[str, str] = {}
        """Server tools that are not offered, with the reason (filtered, unusable schema)."""

    def describe(self) -> str:
        """``mcp git (stdio: python -m mcp_server_git)``."""
        return f"mcp {self.name or '?'} ({self.options.transport}: {self.options.target()})"

    @property
    def tools(self) -> list[MCPTool]:
        """The tools offered since the last :meth:`open` (empty when closed)."""
        return list(self._tools)

    async def open(self, working_directory: Path) -> Sequence[Tool]:
        """Start the server and return its tools (the same ones when already open).

        Raises:
            GentError: Why the server did not start (with its last error output), or why its
                tools cannot be offered (a filter naming no tool, names that collide).
        """
        from gent_mcp.connection import ServerConnection

        if self._connection is not None and self._connection.running:
            return list(self._tools)
        await self.aclose()
        connection = ServerConnection(self.options, self.name or "mcp")
        self._connection = connection
        try:
            listed = await connection.start(Path(working_directory))
            self._tools = self._build_tools(connection, listed)
        except BaseException:
            await self.aclose()
            raise
        return list(self._tools)

    async def aclose(self) -> None:
        """Stop the server (waiting until its process is gone); idempotent."""
        connection, self._connection = self._connection, None
        self._tools = []
        if connection is not None:
            await connection.stop()

    # ------------------------------------------------------------------ tools

    def _selected(self, listed: Sequence[mcp_types.Tool]) -> list[mcp_types.Tool]:
        names = [tool.name for tool in listed]
        include, exclude = self.options.include, self.options.exclude
        for option, patterns in (("include", include), ("exclude", exclude)):
            unmatched = [p for p in patterns if not fnmatch.filter(names, p)]
            if unmatched:
                raise GentError(
                    f"the MCP server {self.name!r} offers no tool matching {option} "
                    f"{', '.join(repr(p) for p in unmatched)}; it offers: "
                    f"{', '.join(names) or '(no tools)'}",
                    hint=f"Fix the '{option}' option (tool names or patterns like 'git_*').",
                )
        selected = []
        self.skipped = {}
        for tool in listed:
            if include and not any(fnmatch.fnmatchcase(tool.name, p) for p in include):
                self.skipped[tool.name] = "not included (option include)"
            elif any(fnmatch.fnmatchcase(tool.name, p) for p in exclude):
                self.skipped[tool.name] = "excluded (option exclude)"
            else:
                selected.append(tool)
        return selected

    def _writes(self, tool: mcp_types.Tool) -> bool:
        policy = self.options.writes
        if policy == "hints":
            return declares_writes(tool.annotations)
        return policy == "all"

    def _build_tools(
        self, connection: ServerConnection, listed: Sequence[mcp_types.Tool]
    ) -> list[MCPTool]:
        from gent_mcp.tool import MCPTool

        tools: list[MCPTool] = []
        taken: dict[str, str] = {}
        for remote in self._selected(listed):
            name = gent_tool_name(remote.name)
            if name != remote.name:
                logger.warning(
                    "MCP server %r: the tool %r is offered as %r (gent tool names are 1-64 "
                    "letters, digits, '_', '-' and '.', starting with a letter or '_')",
                    self.name,
                    remote.name,
                    name,
                )
            if name in taken:
                raise GentError(
                    f"the MCP server {self.name!r} offers the tools {taken[name]!r} and "
                    f"{remote.name!r}, which both become the gent tool name {name!r}",
                    hint="Leave one out with the 'exclude' option.",
                )
            try:
                parameters = clean_schema(dict(remote.input_schema))
                validator = SchemaValidator(parameters)
            except Exception as error:  # noqa: BLE001 - one bad schema must not hide the rest
                reason = f"its input schema cannot be used: {describe_error(error)}"
                self.skipped[remote.name] = reason
                logger.warning(
                    "MCP server %r: tool %r left out: %s", self.name, remote.name, reason
                )
                continue
            taken[name] = remote.name
            tools.append(
                MCPTool(
                    connection,
                    remote.name,
                    name=name,
                    description=(remote.description or remote.title or "").strip(),
                    parameters=parameters,
                    validator=validator,
                    timeout=self.options.call_timeout,
                    writes=self._writes(remote),
                    inline_limit=self.options.inline_resource_chars,
                )
            )
        return tools
