"""Every path stays inside the working directory: each escape, for each tool, is refused with a
clear message, nothing outside is read or written, and special files are never opened."""

from __future__ import annotations

import asyncio
import itertools
import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from gent_tools_files import EditFile, ListDir, PathRejectedError, ReadFile, SearchText, WriteFile
from gent_tools_files.atomic import write_atomic
from gent_tools_files.errors import FileToolError

from gent_core.context import ExecutionContext
from gent_core.testing import run_tool
from gent_core.tools import Tool, ToolResult
from gent_core.workspace import MAX_SYMLINK_HOPS, Workspace

Arguments = Callable[[str], dict[str, Any]]

TOOLS: dict[str, tuple[type[Tool], Arguments]] = {
    "read_file": (ReadFile, lambda path: {"path": path}),
    "list_dir": (ListDir, lambda path: {"path": path}),
    "search_text": (SearchText, lambda path: {"pattern": "secret", "path": path}),
    "write_file": (WriteFile, lambda path: {"path": path, "content": "pwned"}),
    "edit_file": (
        EditFile,
        lambda path: {"path": path, "old_text": "top secret", "new_text": "pwned"},
    ),
}


def call(tool: Tool, arguments: dict[str, Any], work: Path) -> ToolResult:
    """Run the tool, failing the test instead of hanging if it blocks (a FIFO opened)."""

    async def guarded() -> ToolResult:
        context = ExecutionContext(working_directory=work)
        return await asyncio.wait_for(run_tool(tool, arguments, context), timeout=30)

    return asyncio.run(guarded())


@pytest.fixture
def escapes(work: Path) -> dict[str, tuple[str, str]]:
    """Paths that try to leave ``work``: name -> (path, expected reason)."""
    outside = work.parent / "outside"
    (work / "sub").mkdir()
    (work / "a").mkdir()
    (work / "leak").symlink_to("../outside/secret.txt")
    (work / "leak_absolute").symlink_to(outside / "secret.txt")
    (work / "door").symlink_to(outside)
    (work / "a" / "b").symlink_to("../../outside")
    (work / "loop1").symlink_to("loop2")
    (work / "loop2").symlink_to("loop1")
    (work / "self").symlink_to("self")
    (work / "dir_loop").symlink_to("dir_loop/x")
    return {
        "dotdot": ("../outside/secret.txt", "parent"),
        "dotdot_after_subdir": ("sub/../../outside/secret.txt", "parent"),
        "dotdot_only": ("..", "parent"),
        "absolute_outside": (str(outside / "secret.txt"), "absolute"),
        "absolute_root": ("/etc/passwd", "absolute"),
        "link_to_outside_file": ("leak", "symlink"),
        "absolute_link_to_outside_file": ("leak_absolute", "symlink"),
        "intermediate_directory_link": ("door/secret.txt", "symlink"),
        "nested_directory_link": ("a/b/secret.txt", "symlink"),
        "link_loop": ("loop1", "loop"),
        "self_link": ("self", "loop"),
        "growing_link_loop": ("dir_loop/y", "loop"),
        "nul_byte": ("secret\x00.txt", "nul"),
    }


EXPECTED_WORDS = {
    "parent": "'..' climbs above the working directory",
    "absolute": "is outside the working directory",
    "symlink": "symbolic link",
    "loop": "symbolic link loop",
    "nul": "NUL byte",
}


@pytest.mark.parametrize("tool_name", list(TOOLS))
@pytest.mark.parametrize(
    "escape",
    [
        "dotdot",
        "dotdot_after_subdir",
        "dotdot_only",
        "absolute_outside",
        "absolute_root",
        "link_to_outside_file",
        "absolute_link_to_outside_file",
        "intermediate_directory_link",
        "nested_directory_link",
        "link_loop",
        "self_link",
        "growing_link_loop",
        "nul_byte",
    ],
)
def test_every_escape_is_refused_by_every_tool(
    tool_name: str, escape: str, escapes: dict[str, tuple[str, str]], work: Path
) -> None:
    factory, arguments = TOOLS[tool_name]
    path, reason = escapes[escape]
    secret = work.parent / "outside" / "secret.txt"
    with pytest.raises(PathRejectedError) as caught:
        call(factory(), arguments(path), work)
    error = caught.value
    assert error.reason == reason
    assert EXPECTED_WORDS[reason] in error.model_message
    assert "relative to the working directory" in error.model_message  # what is accepted
    assert error.location.tool == tool_name
    assert secret.read_text() == "top secret\n"
    assert sorted(p.name for p in secret.parent.iterdir()) == ["secret.txt"]


def test_a_link_pointing_out_is_named_with_its_destination(
    escapes: dict[str, tuple[str, str]], work: Path
) -> None:
    with pytest.raises(PathRejectedError) as caught:
        call(ReadFile(), {"path": "door/secret.txt"}, work)
    message = caught.value.model_message
    assert "'door' is a symbolic link to" in message
    assert str(work.parent / "outside") in message


def test_the_loop_bound_is_the_systems(work: Path) -> None:
    chain = [work / f"l{index}" for index in range(MAX_SYMLINK_HOPS + 2)]
    for here, there in itertools.pairwise(chain):
        here.symlink_to(there.name)
    chain[-1].write_text("end\n")
    assert call(ReadFile(), {"path": "l1"}, work).output == "end"  # 40 links: followed
    with pytest.raises(PathRejectedError, match="loop"):
        call(ReadFile(), {"path": "l0"}, work)  # 41 links: a loop


def test_paths_that_stay_inside_are_accepted(work: Path) -> None:
    (work / "docs").mkdir()
    (work / "docs" / "a.txt").write_text("alpha\n")
    (work / "alias").symlink_to("docs/a.txt")
    (work / "docs_link").symlink_to(work / "docs")  # absolute, inside
    (work / "up").symlink_to("docs/../docs")
    for path in [
        "docs/a.txt",
        "./docs//a.txt",
        "docs/../docs/a.txt",
        str(work / "docs" / "a.txt"),
        "alias",
        "docs_link/a.txt",
        "up/a.txt",
        " docs/a.txt ",
    ]:
        assert call(ReadFile(), {"path": path}, work).output == "alpha", path


def test_the_working_directory_may_be_reached_through_a_link(tmp_path: Path, work: Path) -> None:
    (work / "a.txt").write_text("alpha\n")
    via = tmp_path / "via"
    via.symlink_to(work)
    assert call(ReadFile(), {"path": str(via / "a.txt")}, via).output == "alpha"
    assert call(ReadFile(), {"path": str(work / "a.txt")}, via).output == "alpha"


def test_writing_through_a_link_inside_writes_its_target(work: Path) -> None:
    (work / "real.txt").write_text("old\n")
    (work / "alias.txt").symlink_to("real.txt")
    call(WriteFile(), {"path": "alias.txt", "content": "new\n"}, work)
    assert (work / "alias.txt").is_symlink()
    assert (work / "real.txt").read_text() == "new\n"


def test_write_file_never_creates_directories_through_an_outside_link(work: Path) -> None:
    outside = work.parent / "outside"
    (work / "door").symlink_to(outside)
    with pytest.raises(PathRejectedError):
        call(WriteFile(), {"path": "door/new/file.txt", "content": "x"}, work)
    assert not (outside / "new").exists()


# --------------------------------------------------------------------------- special files


def _fifo(work: Path) -> str:
    os.mkfifo(work / "pipe")
    return "pipe"


def _socket(work: Path) -> str:
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(work / "sock"))
    server.close()  # the socket file stays
    return "sock"


@pytest.mark.parametrize(
    ("make", "reason", "kind"),
    [(_fifo, "fifo", "named pipe (FIFO)"), (_socket, "socket", "socket")],
)
@pytest.mark.parametrize("tool_name", ["read_file", "search_text", "write_file", "edit_file"])
def test_fifos_and_sockets_are_never_opened(
    make: Callable[[Path], str], reason: str, kind: str, tool_name: str, work: Path
) -> None:
    path = make(work)
    factory, arguments = TOOLS[tool_name]
    with pytest.raises(PathRejectedError) as caught:
        call(factory(), arguments(path), work)
    assert caught.value.reason == reason
    assert f"'{path}' is a {kind}, not a regular file" in caught.value.model_message
    assert not (work / path).is_file()  # not replaced by a write


def test_list_dir_says_a_fifo_is_not_a_directory(work: Path) -> None:
    with pytest.raises(FileToolError, match=r"'pipe' is a named pipe \(FIFO\), not a directory"):
        call(ListDir(), {"path": _fifo(work)}, work)


@pytest.mark.parametrize("tool_name", ["read_file", "search_text", "write_file", "edit_file"])
def test_devices_are_never_opened(tool_name: str) -> None:
    # /dev as the working directory: a real character device, no privilege needed.
    factory, arguments = TOOLS[tool_name]
    with pytest.raises(PathRejectedError) as caught:
        call(factory(), arguments("null"), Path("/dev"))
    assert caught.value.reason == "device"
    assert "'null' is a character device" in caught.value.model_message


def test_special_files_in_a_tree_are_listed_and_skipped_without_blocking(work: Path) -> None:
    _fifo(work)
    _socket(work)
    (work / "a.txt").write_text("secret here\n")
    listing = call(ListDir(), {}, work).output
    assert "pipe (named pipe)" in listing
    assert "sock (socket)" in listing
    found = call(SearchText(), {"pattern": "secret"}, work).output
    assert "a.txt:1: secret here" in found
    assert "skipped 2 FIFOs, sockets or devices: pipe, sock" in found


# --------------------------------------------------------------------------- races


def test_a_file_swapped_for_an_outside_link_after_the_check_is_not_opened(work: Path) -> None:
    (work / "f.txt").write_text("mine\n")
    workspace = Workspace(work, tool="read_file")
    target = workspace.resolve("f.txt")
    (work / "f.txt").unlink()
    (work / "f.txt").symlink_to(work.parent / "outside" / "secret.txt")
    with pytest.raises(PathRejectedError) as caught:
        workspace.open_file(target)
    assert caught.value.reason == "changed"


def test_a_file_swapped_for_a_fifo_after_the_check_neither_blocks_nor_opens(work: Path) -> None:
    (work / "f.txt").write_text("mine\n")
    workspace = Workspace(work, tool="read_file")
    target = workspace.resolve("f.txt")
    (work / "f.txt").unlink()
    os.mkfifo(work / "f.txt")  # no writer: a blocking open would wait forever
    with pytest.raises(PathRejectedError) as caught:
        workspace.open_file(target)
    assert caught.value.reason == "changed"


def test_a_directory_swapped_for_an_outside_link_after_the_check_is_not_entered(
    work: Path,
) -> None:
    outside = work.parent / "outside"
    (work / "d").mkdir()
    (work / "d" / "secret.txt").write_text("mine\n")
    workspace = Workspace(work, tool="read_file")
    read_target = workspace.resolve("d/secret.txt")
    write_target = workspace.resolve("d/new.txt")
    (work / "d" / "secret.txt").unlink()
    (work / "d").rmdir()
    (work / "d").symlink_to(outside)
    with pytest.raises(PathRejectedError):
        workspace.open_file(read_target)
    with pytest.raises(PathRejectedError):
        write_atomic(workspace, write_target, b"pwned", max_bytes=100, option="max_bytes")
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]


def test_a_missing_working_directory_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FileToolError, match="does not exist or is not a directory"):
        call(ReadFile(), {"path": "a.txt"}, tmp_path / "nowhere")
