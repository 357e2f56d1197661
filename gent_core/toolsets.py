"""The :class:`Toolset` contract: a source of several tools that lives as long as an agent.

Some tools cannot be listed up front: an MCP server says which tools it offers only once it
runs, and it must be stopped when the agent is done. A toolset is such a source. It is
configured in an agent file as one entry of ``tools`` whose single key is the toolset's
component name::

    tools:
      - calculator
      - mcp: {name: git, command: [python, -m, mcp_server_git, --repository, .]}

The agent opens every toolset before its first run (:meth:`Toolset.open` returns the tools),
adds the tools to its tool chain, and closes the toolsets when it is closed
(:meth:`Toolset.aclose`), also after an error, Ctrl-C or cancellation. A tool whose name is
already taken is renamed ``<toolset name>:<tool name>`` (see
:class:`~gent_core.tools._renamed.RenamedTool`).

Toolsets are supplied by plugins through the ``gent_register_toolsets`` hook.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gent_core.tools.base import Tool

__all__ = ["Toolset"]


class Toolset(ABC):
    """A source of tools with a lifetime (a server to start and stop, a session to open).

    Attributes:
        name: The label of this toolset instance (``"git"``), used to namespace tool names
            that collide with others. Defaults to the component name.
    """

    name: str = ""

    @abstractmethod
    async def open(self, working_directory: Path) -> Sequence[Tool]:
        """Start whatever the tools need and return them.

        Called once per agent, before its first run. ``working_directory`` is the agent's.

        Raises:
            GentError: With a message for the person running the agent when the toolset
                cannot start (a server that does not start, a bad command); the agent
                reports it with the config entry that configured the toolset.
        """

    async def aclose(self) -> None:  # noqa: B027 - optional hook, a no-op by default
        """Stop and release everything :meth:`open` started. Must be idempotent and must
        not raise on a toolset that never opened or already stopped.
        """

    def describe(self) -> str:
        """A short description for logs and the CLI (``"mcp git (stdio: python -m ...)"``)."""
        return self.name or type(self).__name__

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
