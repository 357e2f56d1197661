"""A plugin of parts that would run for hours, for tests that press Ctrl-C on ``gent run``.

Each part writes a marker file (its ``marker`` option, or ``started`` in the working
directory) as soon as its slow part begins, so a test knows when to send SIGINT. It is
"installed" for a subprocess by :func:`install_slow_plugin` (a ``.dist-info`` with the entry
point, on ``PYTHONPATH``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from gent_core import hookimpl
from gent_core.context import ExecutionContext
from gent_core.model import Model, ModelChunk, ModelRequest, ModelResponse
from gent_core.tools import BaseTool, tool
from gent_core.tools.base import Tool

HOURS = 3600.0
CATASTROPHIC = r"^(a|aa)+$"
SLOW_TEXT = "a" * 100 + "b"  # CATASTROPHIC backtracks over it for hours
REPOSITORY = Path(__file__).resolve().parents[2]


def _started(context: ExecutionContext) -> None:
    (context.working_directory / "started").write_text("started\n")


@tool
def spin(context: ExecutionContext) -> str:
    """A sync tool (run in a worker thread) that computes for hours."""
    _started(context)
    deadline = time.monotonic() + HOURS
    while time.monotonic() < deadline:
        pass
    return "done"


@tool
async def stubborn(context: ExecutionContext) -> str:
    """An async tool that ignores its cancellation."""
    _started(context)
    deadline = time.monotonic() + HOURS
    while time.monotonic() < deadline:
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(HOURS)
    return "done"


@tool
async def hog(context: ExecutionContext) -> str:
    """An async tool that blocks the event loop (sync sleep inside a coroutine)."""
    _started(context)
    time.sleep(HOURS)
    return "done"


class Lookup(BaseTool):
    """A tool whose schema has a pattern that backtracks catastrophically."""

    name = "lookup"
    description = "Look a code up."
    parameters = {  # noqa: RUF012 - read-only
        "type": "object",
        "properties": {"code": {"type": "string", "pattern": CATASTROPHIC}},
        "required": ["code"],
    }

    def run(self, working_directory: Path, code: str) -> str:
        return f"found {code}"


class StuckModel(Model):
    """A model that starts to answer, then waits for hours, ignoring its cancellation."""

    def __init__(self, marker: str) -> None:
        self.marker = Path(marker)

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        yield ModelChunk("<thinking>Let me think")
        self.marker.write_text("started\n")
        deadline = time.monotonic() + HOURS
        while time.monotonic() < deadline:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.sleep(HOURS)
        yield ModelChunk("</thinking>")

    async def complete(self, request: ModelRequest) -> ModelResponse:
        raise NotImplementedError

    def describe(self) -> str:
        return "stuck"


class Marker:
    """Middleware writing ``path`` when a model call ended (what comes next is slow)."""

    def __init__(self, path: str) -> None:
        self.path = Path(path)

    @hookimpl
    def gent_after_model_call(self, request: Any, response: Any, context: Any) -> None:
        self.path.write_text("started\n")


@hookimpl
def gent_register_tools() -> Sequence[Tool]:
    return [spin, stubborn, hog, Lookup()]


@hookimpl
def gent_register_models() -> Mapping[str, Callable[..., Model]]:
    return {"stuck": StuckModel}


@hookimpl
def gent_register_middleware() -> Mapping[str, Callable[..., object]]:
    return {"marker": Marker}


def install_slow_plugin(directory: Path) -> dict[str, str]:
    """Make this plugin installed for a subprocess: return the environment variables that
    put a distribution declaring it (and the repository, for its module) on the path.
    """
    info = directory / "gent_slow_plugin-0.1.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gent-slow-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[gent]\nslow = tests.cli.slow_plugin\n")
    # the site and the repository first; then what the suite runs with (a worktree's plugins)
    inherited = os.environ.get("PYTHONPATH")
    return {
        "PYTHONPATH": os.pathsep.join(
            [str(directory), str(REPOSITORY), *([inherited] if inherited else [])]
        )
    }
