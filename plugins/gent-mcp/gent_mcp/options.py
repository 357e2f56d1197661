"""The options of an ``mcp`` toolset entry, as written in an agent config.

::

    tools:
      - mcp: {name: git, command: [python, -m, mcp_server_git, --repository, .]}
      - mcp: {name: docs, url: "http://127.0.0.1:8000/mcp", include: ["search_*"]}

This module imports nothing from the MCP SDK, so the plugin stays light to load.
"""

from __future__ import annotations

import shlex
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

__all__ = ["MCPOptions", "WritesPolicy"]

WritesPolicy = Literal["hints", "all", "none"]
"""How the tools of a server are marked as writing (see :attr:`MCPOptions.writes`)."""


class MCPOptions(BaseModel):
    """How to reach one MCP server and which of its tools to offer.

    Attributes:
        name: The label of this server (``git``): tools whose names collide with other tools
            are offered as ``<name>:<tool>``, and messages name the server by it.
        command: The program that runs the server and its arguments, talked to over stdio
            (a list, or one string split like a shell does). Exactly one of ``command`` and
            ``url`` is given.
        url: The streamable HTTP endpoint of a running server (``http://host:port/mcp``).
        headers: HTTP headers sent to ``url`` (an ``Authorization`` token...).
        env: Environment variables for the server process, on top of a minimal inherited
            environment (``PATH``, ``HOME``... as the MCP SDK chooses), or on top of the whole
            environment when ``inherit_env`` is true.
        inherit_env: Pass gent's whole environment to the server process.
        cwd: The server process's working directory; relative to the agent's working
            directory, which is the default.
        startup_timeout: Seconds the server may take to start and list its tools.
        call_timeout: Seconds one tool call may take; the run's ``tool_timeout`` by default.
        include: Tool names or shell-style patterns (``git_*``): only matching tools are
            offered. Empty: every tool.
        exclude: Tool names or patterns never offered (applied after ``include``).
        writes: Which tools count as changing files or other state, offered only when the
            agent config says ``allow_writes: true``: ``hints`` (default) trusts the server's
            annotations (``readOnlyHint: false`` or ``destructiveHint: true`` mark a writing
            tool; a tool without annotations counts as not writing), ``all`` marks every tool
            of this server as writing, ``none`` marks none.
        stderr: ``capture`` (default) keeps the server's error output and shows its last
            lines when the server fails to start or stops; ``inherit`` lets it print to
            gent's own error output.
        inline_resource_chars: An embedded text resource up to this many characters is put in
            the tool's output; a longer one goes to the agent's clipboard.
        max_line_chars: The longest message (one line) a server started with ``command``
            may write; a longer one closes its connection, so that a server writing without
            end cannot fill the memory (its tools are then unavailable).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = ""
    command: list[str] | None = None
    url: str | None = None
    headers: dict[str, str] = Field(default_factory=dict)
    env: dict[str, str] = Field(default_factory=dict)
    inherit_env: bool = False
    cwd: str | None = None
    startup_timeout: float = Field(default=30.0, gt=0)
    call_timeout: float | None = Field(default=None, gt=0)
    include: list[str] = Field(default_factory=list)
    exclude: list[str] = Field(default_factory=list)
    writes: WritesPolicy = "hints"
    stderr: Literal["capture", "inherit"] = "capture"
    inline_resource_chars: int = Field(default=4000, ge=0)
    max_line_chars: int = Field(default=20_000_000, ge=1)

    @field_validator("command", mode="before")
    @classmethod
    def _split_command(cls, value: Any) -> Any:
        """Accept ``command`` as one string, split like a POSIX shell does."""
        if isinstance(value, str):
            try:
                return shlex.split(value)
            except ValueError as error:
                raise ValueError(f"cannot split the command: {error}") from None
        if isinstance(value, list):
            return [str(item) if isinstance(item, int | float) else item for item in value]
        return value

    @field_validator("command")
    @classmethod
    def _non_empty_command(cls, value: list[str] | None) -> list[str] | None:
        if value is not None and (not value or not value[0]):
            raise ValueError("the command must name a program, e.g. [python, -m, my_server]")
        return value

    @field_validator("url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError(
                "the url must be an http:// or https:// address of a streamable HTTP "
                "MCP endpoint, e.g. http://127.0.0.1:8000/mcp"
            )
        return value

    @model_validator(mode="after")
    def _one_transport(self) -> MCPOptions:
        if (self.command is None) == (self.url is None):
            raise ValueError(
                "give exactly one of 'command' (a server started over stdio, e.g. "
                "[python, -m, mcp_server_git]) and 'url' (a streamable HTTP endpoint)"
            )
        if self.headers and self.url is None:
            raise ValueError("'headers' apply to 'url' servers only")
        return self

    @property
    def transport(self) -> str:
        """``"stdio"`` or ``"http"``."""
        return "stdio" if self.command is not None else "http"

    def target(self) -> str:
        """The command line or URL, for messages (``python -m mcp_server_git``)."""
        if self.command is not None:
            return shlex.join(self.command)
        assert self.url is not None
        return self.url
