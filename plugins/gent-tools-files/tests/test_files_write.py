"""``write_file`` and ``edit_file``: atomic writes, parent directories, exact-match edits whose
errors name the lines, and bytes outside the edit kept as they were."""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from gent_tools_files import (
    BinaryFileError,
    EditFile,
    EditMatchError,
    FileToolError,
    ListDir,
    ReadFile,
    SearchText,
    WriteFile,
)
from gent_tools_files.atomic import write_atomic

from gent_core.errors import InvalidToolArgumentsError
from gent_core.tools import ToolResult
from gent_core.workspace import Workspace

Run = Callable[..., ToolResult]


def test_only_the_writing_tools_are_marked_as_writing() -> None:
    assert WriteFile.writes is True
    assert EditFile.writes is True
    for reader in (ReadFile, ListDir, SearchText):
        assert getattr(reader, "writes", False) is False


# --------------------------------------------------------------------------- write_file


def test_write_creates_a_file_and_its_parents(run: Run, work: Path) -> None:
    output = run(WriteFile(), {"path": "a/b/c.txt", "content": "one\ntwo\n"}).output
    assert output == "Created a/b/c.txt (2 lines, 8 bytes)."
    assert (work / "a" / "b" / "c.txt").read_text() == "one\ntwo\n"


def test_write_replaces_keeping_the_permissions(run: Run, work: Path) -> None:
    script = work / "run.sh"
    script.write_text("echo old\n")
    script.chmod(0o751)
    output = run(WriteFile(), {"path": "run.sh", "content": "echo new\n"}).output
    assert output == "Replaced run.sh (was 9 bytes; now 1 lines, 9 bytes)."
    assert script.read_text() == "echo new\n"
    assert stat.S_IMODE(script.stat().st_mode) == 0o751


def test_write_leaves_no_temporary_file(run: Run, work: Path) -> None:
    run(WriteFile(), {"path": "a.txt", "content": "x"})
    run(WriteFile(), {"path": "a.txt", "content": "y"})
    assert sorted(p.name for p in work.iterdir()) == ["a.txt"]


@pytest.mark.parametrize("failing", ["write", "replace"])
def test_a_failed_write_keeps_the_old_file_and_no_temporary_file(
    failing: str, work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (work / "a.txt").write_text("old\n")
    workspace = Workspace(work, tool="write_file")
    target = workspace.resolve("a.txt")
    real_write = os.write

    def disk_full(fd: int, data: bytes) -> int:
        real_write(fd, bytes(data[:2]))  # a partial write, then the disk is full
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def broken_rename(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    if failing == "write":
        monkeypatch.setattr(os, "write", disk_full)
    else:
        monkeypatch.setattr(os, "replace", broken_rename)
    with pytest.raises(FileToolError) as caught:
        write_atomic(workspace, target, b"new content\n", max_bytes=100, option="max_bytes")
    monkeypatch.undo()
    reason = os.strerror(errno.ENOSPC if failing == "write" else errno.EIO)
    assert caught.value.model_message == f"'a.txt' cannot be written: {reason}."
    assert (work / "a.txt").read_text() == "old\n"
    assert sorted(p.name for p in work.iterdir()) == ["a.txt"]


def test_write_errors(run: Run, work: Path) -> None:
    (work / "d").mkdir()
    (work / "f.txt").write_text("x")
    with pytest.raises(FileToolError, match="'d' is a directory, not a file"):
        run(WriteFile(), {"path": "d", "content": "x"})
    with pytest.raises(FileToolError, match=re.escape("'f.txt' is a file, not a directory")):
        run(WriteFile(), {"path": "f.txt/inner.txt", "content": "x"})
    with pytest.raises(FileToolError, match="the working directory itself"):
        run(WriteFile(), {"path": ".", "content": "x"})
    with pytest.raises(
        FileToolError,
        match=re.escape("11 bytes, more than write_file writes (10 bytes, its max_bytes"),
    ):
        run(WriteFile(max_bytes=10), {"path": "big.txt", "content": "x" * 11})
    with pytest.raises(FileToolError, match="cannot be written as UTF-8"):
        run(WriteFile(), {"path": "s.txt", "content": "bad \ud800 surrogate"})
    with pytest.raises(InvalidToolArgumentsError, match="Missing required argument 'content'"):
        run(WriteFile(), {"path": "x.txt"})
    assert not (work / "big.txt").exists()
    assert not (work / "s.txt").exists()


# --------------------------------------------------------------------------- edit_file

SOURCE = "def f():\n    return 1\n\n\ndef g():\n    return 1\n"


def test_edit_replaces_one_exact_match_and_shows_the_result(run: Run, work: Path) -> None:
    (work / "m.py").write_text(SOURCE)
    arguments = {
        "path": "m.py",
        "old_text": "def g():\n    return 1",
        "new_text": "def g():\n    return 2",
    }
    output = run(EditFile(), arguments).output
    assert (work / "m.py").read_text() == "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
    assert output == (
        "Edited m.py: replaced 1 occurrence (line 5). Lines 3-6 now read:\n"
        "3: \n4: \n5: def g():\n6:     return 2"
    )


def test_edit_with_zero_matches_names_near_misses(run: Run, work: Path) -> None:
    (work / "m.py").write_text(SOURCE)
    with pytest.raises(EditMatchError) as caught:
        run(EditFile(), {"path": "m.py", "old_text": "def g():\n  return 1", "new_text": "x"})
    error = caught.value
    assert error.count == 0
    assert "old_text was not found in 'm.py'; nothing was changed." in error.model_message
    assert "differs only in whitespace (indentation, spaces, tabs) starts at line 5" in (
        error.model_message
    )
    assert "read_file (line_numbers: true)" in error.model_message
    assert (work / "m.py").read_text() == SOURCE


def test_edit_zero_match_hints(run: Run, work: Path) -> None:
    (work / "m.py").write_text(SOURCE)
    cases = {
        "DEF F():": "differs only in letter case starts at line 1",
        "    return 1\n    pass": "Its first line appears at line 2, 6",
        "1:     return 1\n2: x": "seems to start its lines with line numbers",
    }
    for old_text, hint in cases.items():
        with pytest.raises(EditMatchError) as caught:
            run(EditFile(), {"path": "m.py", "old_text": old_text, "new_text": "x"})
        assert hint in caught.value.model_message, old_text


def test_edit_with_several_matches_lists_their_lines(run: Run, work: Path) -> None:
    (work / "m.py").write_text(SOURCE)
    with pytest.raises(EditMatchError) as caught:
        run(EditFile(), {"path": "m.py", "old_text": "return 1", "new_text": "return 2"})
    error = caught.value
    assert (error.count, error.lines) == (2, [2, 6])
    assert "old_text occurs 2 times (lines 2, 6) in 'm.py'; nothing was changed." in (
        error.model_message
    )
    assert "replace_all" in error.model_message
    assert "expected_replacements to 2" in error.model_message
    assert (work / "m.py").read_text() == SOURCE


def test_edit_replace_all_and_expected_replacements(run: Run, work: Path) -> None:
    (work / "m.py").write_text(SOURCE)
    output = run(
        EditFile(),
        {"path": "m.py", "old_text": "return 1", "new_text": "return 2", "replace_all": True},
    ).output
    assert output.startswith("Edited m.py: replaced 2 occurrences (lines 2, 6).")
    assert (work / "m.py").read_text().count("return 2") == 2
    with pytest.raises(EditMatchError) as caught:
        run(
            EditFile(),
            {"path": "m.py", "old_text": "return 2", "new_text": "x", "expected_replacements": 3},
        )
    assert "occurs 2 times (lines 2, 6) in 'm.py', not 3 as expected_replacements says" in (
        caught.value.model_message
    )
    run(
        EditFile(),
        {
            "path": "m.py",
            "old_text": "return 2",
            "new_text": "return 3",
            "expected_replacements": 2,
        },
    )
    assert (work / "m.py").read_text().count("return 3") == 2


def test_edit_keeps_crlf_bom_and_undecodable_bytes(run: Run, work: Path) -> None:
    # A byte-order mark, CRLF endings, and a byte that is not UTF-8 past the sniffed block.
    data = b"\xef\xbb\xbfname = 'cafe'\r\n" + b"#" * 9000 + b"\r\nvalue = 1\r\nend\r\n# caf\xe9\r\n"
    (work / "legacy.txt").write_bytes(data)
    run(
        EditFile(),
        {"path": "legacy.txt", "old_text": "value = 1\nend", "new_text": "value = 2\nend"},
    )
    assert (work / "legacy.txt").read_bytes() == data.replace(b"value = 1", b"value = 2")


def test_edit_errors(run: Run, work: Path) -> None:
    (work / "m.py").write_text(SOURCE)
    (work / "img.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00")
    with pytest.raises(FileToolError, match="the same; there is nothing to change"):
        run(EditFile(), {"path": "m.py", "old_text": "f", "new_text": "f"})
    with pytest.raises(BinaryFileError, match="edit_file edits UTF-8 text files only"):
        run(EditFile(), {"path": "img.png", "old_text": "PNG", "new_text": "JPG"})
    with pytest.raises(FileToolError, match="more than edit_file edits"):
        run(EditFile(max_file_bytes=10), {"path": "m.py", "old_text": "f", "new_text": "h"})
    with pytest.raises(FileToolError, match=re.escape("'nope.py' does not exist")):
        run(EditFile(), {"path": "nope.py", "old_text": "f", "new_text": "h"})
    with pytest.raises(InvalidToolArgumentsError, match="old_text"):
        run(EditFile(), {"path": "m.py", "old_text": "", "new_text": "h"})
    with pytest.raises(InvalidToolArgumentsError, match="expected_replacements"):
        run(
            EditFile(),
            {"path": "m.py", "old_text": "f", "new_text": "h", "expected_replacements": 0},
        )
    assert (work / "m.py").read_text() == SOURCE


def test_an_edit_refuses_to_overwrite_a_file_changed_since_it_was_read(work: Path) -> None:
    (work / "m.py").write_text(SOURCE)
    workspace = Workspace(work, tool="edit_file")
    target = workspace.resolve("m.py")
    read_status = os.stat(work / "m.py")
    (work / "m.py").write_text(SOURCE + "# someone else\n")
    with pytest.raises(FileToolError, match="changed on disk while it was being edited"):
        write_atomic(
            workspace,
            target,
            b"mine\n",
            max_bytes=100,
            option="max_bytes",
            unchanged_since=read_status,
        )
    assert (work / "m.py").read_text().endswith("# someone else\n")
