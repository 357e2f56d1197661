"""Writing a file inside the working directory atomically: a temporary file renamed over it.

A reader sees the old content or the new one, never half of it; a failed write leaves the old
file as it was and no temporary file behind. Missing parent directories are created, one
component at a time relative to the parent's descriptor with ``O_NOFOLLOW``, so a directory
swapped for a symbolic link is never followed out of the working directory.

Every write has a byte cap (:func:`check_write_size`): ``write_atomic`` refuses data past it
before anything is touched, and a tool that can tell the size before it builds the content
(``edit_file`` with ``replace_all``) checks it first with the same function.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat

from gent_core.workspace import (
    BINARY,
    CLOEXEC,
    DIR_FLAGS,
    NOFOLLOW,
    USE_DIR_FD,
    Target,
    Workspace,
    same_file,
)
from gent_tools_files.errors import FileToolError
from gent_tools_files.text import human_size

__all__ = ["WRITE_HINT", "check_write_size", "write_atomic"]

WRITE_HINT = "Write less at once: split the content over several files."
"""What to do about content past the cap, in words for the model."""


def check_write_size(
    size: int, limit: int, *, tool: str, path: str, option: str, hint: str = WRITE_HINT
) -> None:
    """Refuse to write ``size`` bytes when that is more than ``limit``: the one byte cap of
    every file the tools write.

    Args:
        size: The bytes the file would hold.
        limit: The most bytes the tool writes.
        tool: The tool's name.
        path: The file's path as given.
        option: The tool option that sets ``limit`` (named in the error).
        hint: What the model can do instead.

    Raises:
        FileToolError: Saying the size, the cap and what to do; nothing was written.
    """
    if size <= limit:
        return
    shown = human_size(size) if size < 1024 else f"{human_size(size)} ({size:,} bytes)"
    raise FileToolError(
        f"The new content of {path!r} would be {shown}, more than {tool} writes "
        f"({human_size(limit)}, its {option} option); nothing was written.",
        tool=tool,
        path=path,
        hint=hint,
    )


def write_atomic(
    workspace: Workspace,
    target: Target,
    data: bytes,
    *,
    max_bytes: int,
    option: str,
    unchanged_since: os.stat_result | None = None,
) -> bool:
    """Write ``data`` to ``target`` through a temporary file renamed over it.

    Missing parent directories are created (inside the working directory); an existing file
    keeps its permission bits. No link is followed: if a component was swapped for a link
    since it was resolved, the write fails.

    Args:
        workspace: The working directory ``target`` was resolved in.
        target: Where to write (resolved; missing or a regular file).
        data: The new content.
        max_bytes: The most bytes written (:func:`check_write_size`).
        option: The tool option that sets ``max_bytes``, for the error.
        unchanged_since: The file's status when it was read: if it changed since (another
            writer got there first), nothing is written.

    Returns:
        Whether the file was created (as opposed to replaced).

    Raises:
        FileToolError, PathRejectedError: The target is the working directory, a directory
            or a special file, a parent is a file, the file changed meanwhile, or the write
            failed (the message gives the system's reason), or ``data`` is larger than
            ``max_bytes``.
    """
    check_write_size(len(data), max_bytes, tool=workspace.tool, path=target.raw, option=option)
    if not target.parts:
        raise FileToolError(
            "'.' is the working directory itself; give a file name.",
            tool=workspace.tool,
            path=target.raw,
            hint="For example 'notes.txt' or 'src/module.py'.",
        )
    if target.stat is not None and not stat.S_ISREG(target.stat.st_mode):
        workspace.require_file(target)
    *parents, name = target.parts
    try:
        directory = _open_parent(workspace, target, tuple(parents))
    except OSError as error:
        raise workspace.open_error(target, error, writing=True) from None
    try:
        return _replace(workspace, target, directory, name, data, unchanged_since)
    finally:
        if isinstance(directory, int):
            os.close(directory)


def _open_parent(workspace: Workspace, target: Target, parents: tuple[str, ...]) -> int | str:
    """Open (creating as needed) the parent directory: a descriptor, or a path (no dir_fd)."""
    if not USE_DIR_FD:
        path = os.path.join(workspace.root, *parents)
        os.makedirs(path, exist_ok=True)
        if os.path.realpath(path) != path:
            raise workspace.changed_error(target)
        return path
    fd = os.open(workspace.root, DIR_FLAGS)
    try:
        for index, part in enumerate(parents):
            try:
                child = os.open(part, DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                os.mkdir(part, dir_fd=fd)
                child = os.open(part, DIR_FLAGS, dir_fd=fd)
            except NotADirectoryError:
                if os.path.islink(os.path.join(workspace.root, *parents[: index + 1])):
                    raise workspace.changed_error(target) from None
                raise workspace.not_a_directory(target.raw, list(parents[: index + 1])) from None
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


def _current(
    workspace: Workspace, target: Target, here: str, dir_fd: int | None
) -> os.stat_result | None:
    """The status of the file about to be replaced (``None`` when there is none yet)."""
    try:
        current = os.stat(here, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise workspace.open_error(target, error, writing=True) from None
    if stat.S_ISLNK(current.st_mode):
        raise workspace.changed_error(target)
    if not stat.S_ISREG(current.st_mode):
        workspace.require_file(Target(target.raw, target.parts, target.real, current))
    return current


def _replace(
    workspace: Workspace,
    target: Target,
    directory: int | str,
    name: str,
    data: bytes,
    unchanged_since: os.stat_result | None,
) -> bool:
    dir_fd = directory if isinstance(directory, int) else None
    here = name if dir_fd is not None else os.path.join(str(directory), name)
    current = _current(workspace, target, here, dir_fd)
    if unchanged_since is not None and (
        current is None
        or not same_file(current, unchanged_since)
        or current.st_size != unchanged_since.st_size
        or current.st_mtime_ns != unchanged_since.st_mtime_ns
    ):
        raise FileToolError(
            f"{target.relative!r} changed on disk while it was being edited; nothing was written.",
            tool=workspace.tool,
            path=target.raw,
            hint="Read the file again and repeat the edit.",
        )
    temporary = f".{name[:200]}.{secrets.token_hex(6)}.tmp"
    there = temporary if dir_fd is not None else os.path.join(str(directory), temporary)
    mode = stat.S_IMODE(current.st_mode) if current is not None else 0o666
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | CLOEXEC | BINARY
    try:
        fd = os.open(there, flags, mode, dir_fd=dir_fd)
    except OSError as error:
        raise workspace.open_error(target, error, writing=True) from None
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if current is not None and hasattr(os, "fchmod"):
                os.fchmod(fd, mode)  # the exact bits, whatever the umask
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(there, here, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(there, dir_fd=dir_fd)
        if isinstance(error, OSError):
            raise workspace.open_error(target, error, writing=True) from None
        raise
    if dir_fd is not None:
        with contextlib.suppress(OSError):
            os.fsync(dir_fd)  # make the rename itself durable
    return current is None
