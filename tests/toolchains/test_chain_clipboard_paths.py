"""Clipboard paths a tool returns are refused with a reason, never raised (issue 11, bug 6:
the execution engine's path check)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from gent_json import JSONToolChain

from gent_core._execution import execute_calls
from gent_core._file_errors import FileToolError
from gent_core.context import ExecutionContext
from gent_core.errors import ToolExecutionError
from gent_core.testing import PlainFormat
from gent_core.toolchain import ToolCall
from gent_core.tools.result import ToolResult
from tests.toolchains.chain_doubles import async_tool


def returning_file(path: str | Path) -> ToolResult:
    return ToolResult(
        output="ok", clipboard_files=[Path(path)] if isinstance(path, str) else [path]
    )


def run_with_file(tmp_path: Path, path: str | Path) -> ToolResult:
    tool = async_tool("put", lambda: returning_file(path))
    result = asyncio.run(
        execute_calls(
            JSONToolChain([tool]), [ToolCall("put")], PlainFormat(), ExecutionContext(tmp_path)
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


def test_the_workspace_refuses_with_its_own_errors_only(tmp_path: Path) -> None:
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    workspace = ExecutionContext(tmp_path).workspace("put")
    for bad in ("a\x00b", "loop", "x" * 5000):
        with pytest.raises(FileToolError):
            workspace.resolve(bad)
    (tmp_path / "ok.txt").write_text("fine")
    assert workspace.resolve("ok.txt").relative == "ok.txt"
    assert workspace.resolve(str(tmp_path / "ok.txt")).relative == "ok.txt"
    assert os.path.exists(tmp_path / "ok.txt")


def test_dotdot_that_stays_inside_and_links_inside_are_accepted(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "notes.txt").write_text("n")
    (tmp_path / "alias.txt").symlink_to("notes.txt")
    assert run_with_file(tmp_path, "sub/../notes.txt").clipboard_files == [Path("notes.txt")]
    assert run_with_file(tmp_path, "alias.txt").clipboard_files == [Path("notes.txt")]


def test_a_link_out_of_the_working_directory_is_refused(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (tmp_path / "secret.txt").write_text("s")
    (work / "leak").symlink_to("../secret.txt")
    outcome = run_with_file(work, "leak")
    assert outcome.status == "error" and outcome.error is not None
    assert "outside the working directory" in outcome.error.model_message
