"""The toolset session of an agent: open its toolsets into its tool chain, withhold the tools
that write when writes are not allowed, rename the tools whose names are taken, and close the
toolsets again (in reverse order, each failure isolated).

:class:`~gent_core._agent.Agent` keeps one session; ``gent mcp-serve`` (gent-mcp) serves the
tools of an agent the session opened, through :meth:`Agent.open <gent_core._agent.Agent.open>`
and :meth:`Agent.aclose <gent_core._agent.Agent.aclose>`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path

from gent_core.errors import GentError, Location, ToolsetError
from gent_core.toolchain import ToolChain
from gent_core.tools.base import Tool
from gent_core.toolsets import Toolset

__all__ = ["ToolsetSession"]

_log = logging.getLogger("gent.agent")


def _being_cancelled() -> bool:
    """Whether the current task is being cancelled (always assumed before Python 3.11,
    which cannot tell a cancellation from a ``CancelledError`` raised by other means).
    """
    task = asyncio.current_task()
    cancelling = getattr(task, "cancelling", None)
    return cancelling is None or cancelling() > 0


class ToolsetSession:
    """The open toolsets of one agent and the tools they added to its tool chain.

    :meth:`open` opens every toolset (once: a second call while open does nothing) and adds
    their tools to the chain; :meth:`aclose` closes them. Opening again after closing first
    takes the tools of the earlier opening out of the chain.
    """

    def __init__(self) -> None:
        self.is_open = False
        """Whether the toolsets are open (their tools in the chain)."""
        self.tools: dict[str, Toolset] = {}
        """The tools added by the open toolsets, by name (as offered), with the toolset of
        each."""
        self.withheld: list[str] = []
        """The tools left out because they write (``<toolset>:<tool>``)."""
        self._opened: list[Toolset] = []

    async def open(
        self,
        toolsets: Sequence[Toolset],
        toolchain: ToolChain | None,
        working_directory: Path,
        *,
        allow_writes: bool,
        origins: Mapping[int, Location],
    ) -> None:
        """Open ``toolsets`` and add their tools to ``toolchain``.

        A tool whose name is already taken is added as ``<toolset>:<tool>``. A tool that
        writes is left out (with a warning) unless ``allow_writes``. When a toolset fails to
        open, the ones already opened are closed again.

        Args:
            toolsets: The toolsets, in the order their tools are offered.
            toolchain: The chain the tools join (needed when there are toolsets).
            working_directory: Where the toolsets' tools work.
            allow_writes: Whether tools that change files or other state are offered.
            origins: Where each toolset was configured (by ``id``), for errors.

        Raises:
            GentError: When there are toolsets but no tool chain.
            ToolsetError: Naming the toolset, where it was configured, and why it failed.
        """
        if self.is_open:
            return
        if toolsets and toolchain is None:
            raise GentError(
                "an agent with toolsets needs a tool chain",
                hint="Pass toolchain=... (for example the 'json' tool chain).",
            )
        if toolchain is not None:
            for name in self.tools:  # tools of an earlier opening
                toolchain.remove_tool(name)
        self.tools = {}
        self.withheld = []
        for toolset in toolsets:
            assert toolchain is not None  # checked above: there are toolsets
            tools = await self._open_one(toolset, working_directory, origins)
            self._add(toolset, tools, toolchain, allow_writes=allow_writes)
        self.is_open = True

    async def _open_one(
        self, toolset: Toolset, working_directory: Path, origins: Mapping[int, Location]
    ) -> list[Tool]:
        """The tools of ``toolset``, opened; on failure every opened toolset is closed."""
        try:
            tools = list(await toolset.open(working_directory))
        except (Exception, asyncio.CancelledError) as error:
            self._opened.append(toolset)
            await self.close_toolsets()
            if isinstance(error, asyncio.CancelledError) and _being_cancelled():
                raise  # Ctrl-C or a cancelled run while a server starts: not its error
            raise ToolsetError(toolset.describe(), origins.get(id(toolset)), error) from error
        self._opened.append(toolset)
        return tools

    def _add(
        self, toolset: Toolset, tools: list[Tool], toolchain: ToolChain, *, allow_writes: bool
    ) -> None:
        """Add the tools of one toolset to the chain, withholding and renaming as needed."""
        from gent_core.tools._renamed import RenamedTool

        withheld = [tool.name for tool in tools if tool.writes and not allow_writes]
        if withheld:
            self._warn_withheld(toolset, withheld)
        for tool in tools:
            if tool.writes and not allow_writes:
                continue
            if toolchain.get_tool(tool.name) is not None:
                tool = RenamedTool(tool, f"{toolset.name}:{tool.name}")
            toolchain.add_tool(tool)
            self.tools[tool.name] = toolset

    def _warn_withheld(self, toolset: Toolset, names: list[str]) -> None:
        self.withheld.extend(f"{toolset.name}:{name}" for name in names)
        _log.warning(
            "toolset %s: %d tool(s) that change files or other state are not offered (%s); "
            "add 'allow_writes: true' to the config to offer them",
            toolset.describe(),
            len(names),
            ", ".join(names),
        )

    async def close_toolsets(self) -> None:
        """Close the opened toolsets, last opened first; a failure is a warning and the
        others are closed too.
        """
        opened, self._opened = self._opened, []
        for toolset in reversed(opened):
            try:
                await toolset.aclose()
            except Exception as error:  # noqa: BLE001 - closing must close the others too
                _log.warning(
                    "closing toolset %s failed: %s: %s",
                    toolset.describe(),
                    type(error).__name__,
                    error,
                )

    async def aclose(self) -> None:
        """Close the toolsets; the session may be opened again. Safe to call more than once."""
        try:
            await self.close_toolsets()
        finally:
            self.is_open = False
