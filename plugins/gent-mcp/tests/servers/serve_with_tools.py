"""The real ``gent mcp-serve CONFIG`` (its CLI entry point, over stdio) with the installed
plugins plus tools that misbehave: one raising KeyboardInterrupt (sync, in a worker thread, and
async, in the event loop), and one whose output holds a lone surrogate.

Run as ``python serve_with_tools.py CONFIG``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from gent_core import hookimpl
from gent_core.testing import PluginSandbox
from gent_core.testing import run_cli as main
from gent_core.tools import tool


@tool
def interrupt_sync() -> str:
    """Raise KeyboardInterrupt in a worker thread."""
    raise KeyboardInterrupt


@tool
async def interrupt_async() -> str:
    """Raise KeyboardInterrupt in the event loop."""
    raise KeyboardInterrupt


@tool
def broken_text() -> str:
    """Return text holding a lone surrogate."""
    return "before \ud800 after"


class MisbehavingTools:
    @hookimpl
    def gent_register_tools(self) -> Sequence[Any]:
        return [interrupt_sync, interrupt_async, broken_text]


if __name__ == "__main__":
    sandbox = PluginSandbox()
    sandbox.load_installed()
    sandbox.register(MisbehavingTools(), "misbehaving")
    with sandbox.as_process_manager():
        sys.exit(main(["mcp-serve", sys.argv[1]]))
