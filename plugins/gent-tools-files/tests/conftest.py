"""Fixtures for the file tools' tests: a working directory with a secret file beside it."""

from __future__ import annotations

import time
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


@pytest.fixture
def leaping_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``time.monotonic``, ``time.perf_counter`` and ``time.time`` leap an hour whenever
    they are read: what a time budget would see on a very slow machine. An answer bounded by
    work, not time, is the same with it."""
    now = [1_000_000_000.0]  # any start: only the leaps matter

    def leaping() -> float:
        now[0] += 3600.0
        return now[0]

    for name in ("monotonic", "perf_counter", "time"):
        monkeypatch.setattr(time, name, leaping)
