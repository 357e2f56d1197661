"""Clipboard paths a tool returns are refused with a reason, never raised (issue 11, bug 6:
the execution engine's path check)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from gent_json import JSONToolChain

from gent_core._execution import execute_calls
from gent_core._observation import resolve_inside
from gent_core.context import ExecutionContext
from gent_core.errors import ToolExecutionError
from gent_core.toolchain import ToolCall
from gent_core.tools.result import ToolResult
from tests.toolchains.chain_doubles import BracketFormat, async_tool


def returning_file(path: str | Path) -> ToolResult:
    return ToolResult(
        output="ok", clipboard_files=[Path(path)] if isinstance(path, str) else [path]
    )


def run_with_file(tmp_path: Path, path: str | Path) -> ToolResult:
    tool = async_tool("put", lambda: returning_file(path))
    result = asyncio.run(
        execute_calls(
            JSONToolChain([tool]), [ToolCall("put")], BracketFormat(), ExecutionContext(tmp_path)
        )
    )
    [outcome] = result.results
    return outcome


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("notes\x00.txt", "contains a NUL byte"),
        ("../outside.txt", "outside the working directory"),
        ("/etc/passwd", "outside the working directory"),
    ],
)
def test_bad_clipboard_paths_are_error_results(tmp_path: Path, path: str, reason: str) -> None:
    outcome = run_with_file(tmp_path, path)
    assert outcome.status == "error"
    assert isinstance(outcome.error, ToolExecutionError)
    assert reason in outcome.error.model_message


def test_a_symlink_loop_is_refused(tmp_path: Path) -> None:
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    for name in ("loop", "a", "loop/inner.txt"):
        outcome = run_with_file(tmp_path, name)
        assert outcome.status == "error", name
        assert outcome.error is not None
        assert "symbolic link loop" in outcome.error.model_message


def test_resolve_inside_never_raises(tmp_path: Path) -> None:
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    assert resolve_inside(Path("a\x00b"), tmp_path) is None
    assert resolve_inside(Path("loop"), tmp_path) is None
    assert resolve_inside(Path("x" * 5000), tmp_path) in (None, Path("x" * 5000))
    (tmp_path / "ok.txt").write_text("fine")
    assert resolve_inside(Path("ok.txt"), tmp_path) == Path("ok.txt")
    assert resolve_inside(tmp_path / "ok.txt", tmp_path) == Path("ok.txt")
    assert os.path.exists(tmp_path / "ok.txt")
