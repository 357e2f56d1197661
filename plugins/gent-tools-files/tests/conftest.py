"""Fixtures for the file tools' tests: a working directory with a secret file beside it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from gent_core.context import ExecutionContext
from gent_core.testing import run_tool_sync
from gent_core.tools import Tool, ToolResult

Run = Callable[..., ToolResult]


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """The working directory (empty); ``../outside/secret.txt`` lies beside it."""
    directory = tmp_path / "work"
    directory.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("top secret\n")
    return directory


@pytest.fixture
def run(work: Path) -> Run:
    """Call a tool in ``work`` like a tool chain does (errors are raised)."""

    def call(
        tool: Tool, arguments: Mapping[str, Any], *, context: ExecutionContext | None = None
    ) -> ToolResult:
        if context is None:
            context = ExecutionContext(working_directory=work)
        return run_tool_sync(tool, arguments, context)

    return call
