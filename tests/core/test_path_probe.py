"""The one probe of paths from outside (``gent_core._path_probe.probe_path``): every answer,
never an exception (``Path.exists()`` re-raises ENAMETOOLONG and EACCES on Python 3.10-3.13).
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

import pytest

from gent_core._path_probe import PathProbe, probe_path

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file kinds and errors")


def test_what_is_there(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    (tmp_path / "directory").mkdir()
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "link").symlink_to(tmp_path / "file")
    assert probe_path(tmp_path / "file") == PathProbe("file")
    assert probe_path(tmp_path / "link") == PathProbe("file")  # links are followed
    assert probe_path(str(tmp_path / "directory")) == PathProbe("directory")
    assert probe_path(tmp_path / "fifo") == PathProbe("other")
    assert probe_path(tmp_path / "fifo").exists
    assert probe_path("/dev/null").state == "is neither a file nor a directory"


def test_nothing_there(tmp_path: Path) -> None:
    assert probe_path(tmp_path / "missing") == PathProbe("missing")
    (tmp_path / "file").write_text("x")
    # a file where a directory is named on the way (ENOTDIR) is nothing there either
    through = probe_path(tmp_path / "file" / "below")
    assert through == PathProbe("missing")
    assert through.state == "does not exist"
    assert not (through.exists or through.is_file or through.is_dir)


def test_a_name_too_long_is_an_answer(tmp_path: Path) -> None:
    """The instance: a 300-character name (Path.is_file() raised ENAMETOOLONG)."""
    long = tmp_path / ("x" * 300)
    with pytest.raises(OSError, match="too long"):
        long.stat()
    probe = probe_path(long)
    assert probe == PathProbe("unknown", "the name is too long")
    assert probe.state == "cannot be checked (the name is too long)"
    assert not (probe.exists or probe.is_file or probe.is_dir)


def test_a_path_past_the_longest_path_is_an_answer() -> None:
    """A variant: every name short enough, the whole path past PATH_MAX."""
    assert probe_path("/".join(["y" * 200] * 30)) == PathProbe("unknown", "the name is too long")


def test_a_directory_that_cannot_be_searched_is_an_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """EACCES (a directory on the way without search permission). Root may search every
    directory, so the system call is made to fail as it does for a user.
    """
    locked = tmp_path / "locked"
    locked.mkdir()
    real_stat = os.stat

    def stat(path: object, *args: object, **kwargs: object) -> os.stat_result:
        if str(path).startswith(str(locked) + os.sep):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", stat)
    if sys.version_info >= (3, 11):  # 3.10's pathlib bound os.stat when it was imported
        with pytest.raises(PermissionError):
            (locked / "agent.yaml").is_file()  # what the callers did before
    assert probe_path(locked / "agent.yaml") == PathProbe("unknown", "permission denied")
    assert probe_path(locked) == PathProbe("directory")


def test_a_link_loop_and_a_nul_byte_are_answers(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    assert probe_path(tmp_path / "a") == PathProbe("unknown", "a symbolic link loop")
    assert probe_path("agent\0.yaml") == PathProbe("unknown", "the path contains a NUL byte")
