"""Confining every path to the working directory, and opening files there without races.

The one implementation of path confinement: the file tools (gent-tools-files) resolve and
open every path with it, and the agent checks and reads clipboard files with it
(:meth:`ExecutionContext.workspace <gent_core.context.ExecutionContext.workspace>`). Plugins
use it as :class:`gent_core.workspace.Workspace`.

:meth:`Workspace.resolve` turns the path a model wrote into a :class:`Target` inside the
working directory, or raises :class:`~gent_core._file_errors.PathRejectedError` saying what
was wrong:

* a NUL byte;
* an absolute path outside the working directory (absolute paths inside it are accepted);
* ``..`` climbing above the working directory (``a/../b`` stays inside and is accepted);
* a symbolic link pointing outside, directly or through an intermediate directory link,
  absolute or relative (links that stay inside are followed);
* a symbolic link loop (more than :data:`MAX_SYMLINK_HOPS` links on one path).

Resolution walks the path one component at a time with :func:`os.lstat` and
:func:`os.readlink`, never asking the operating system to follow a link, so a link is judged
by where it points before anything goes through it.

Opening (:meth:`Workspace.open_file`, :meth:`Workspace.open_directory`, writes) then walks
the resolved, link-free components again with ``O_NOFOLLOW`` relative to each parent's file
descriptor: if a component is swapped for a link between the check and the use, the open
fails instead of following it. A file is opened for reading only when :func:`os.lstat` says it
is a regular file, with ``O_NONBLOCK`` (a FIFO swapped in at the last moment cannot block the
open) and checked again with :func:`os.fstat` on the open descriptor. FIFOs, sockets and
devices are never opened. Platforms without ``dir_fd`` support (Windows) open by full path
with the same type checks.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import stat
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from gent_core._file_errors import RELATIVE_PATH_HINT, FileToolError, PathRejectedError
from gent_core._open_flags import (
    DIR_FLAGS,
    LINK_ERRNOS,
    NOFOLLOW,
    NONBLOCK,
    READ_FLAGS,
    USE_DIR_FD,
)

__all__ = ["MAX_SYMLINK_HOPS", "Target", "Workspace", "describe_mode", "same_file"]

MAX_SYMLINK_HOPS = 40
"""Symbolic links followed on one path before it is called a loop (Linux's own limit)."""


def describe_mode(mode: int) -> str:
    """Name the kind of file ``mode`` (an ``st_mode``) describes, for messages."""
    if stat.S_ISREG(mode):
        return "regular file"
    if stat.S_ISDIR(mode):
        return "directory"
    if stat.S_ISLNK(mode):
        return "symbolic link"
    if stat.S_ISFIFO(mode):
        return "named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode):
        return "character device"
    if stat.S_ISBLK(mode):
        return "block device"
    return "special file"


def _special_reason(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "device"


@dataclass(frozen=True)
class Target:
    """A path checked to lie inside the working directory, every symbolic link resolved.

    Attributes:
        raw: The path as the model wrote it.
        parts: The components below the working directory (empty for the directory itself);
            none of them is a symbolic link.
        real: The absolute real path.
        stat: :func:`os.lstat` of :attr:`real`, or ``None`` when it does not exist.
    """

    raw: str
    parts: tuple[str, ...]
    real: str
    stat: os.stat_result | None

    @property
    def relative(self) -> str:
        """The path relative to the working directory, with ``/`` (``"."`` for itself)."""
        return "/".join(self.parts) or "."

    @property
    def label(self) -> str:
        """How answers name the path: ``"the working directory"`` or the relative path."""
        return "/".join(self.parts) or "the working directory"

    @property
    def exists(self) -> bool:
        """Whether the path exists."""
        return self.stat is not None

    @property
    def is_dir(self) -> bool:
        """Whether the path is an existing directory."""
        return self.stat is not None and stat.S_ISDIR(self.stat.st_mode)

    @property
    def is_file(self) -> bool:
        """Whether the path is an existing regular file."""
        return self.stat is not None and stat.S_ISREG(self.stat.st_mode)


class Workspace:
    """The working directory of one tool call: resolves and opens paths confined to it.

    Args:
        working_directory: The directory (``context.working_directory``).
        tool: The calling tool's name, for error messages.

    Raises:
        FileToolError: The working directory does not exist or is not a directory.
    """

    def __init__(self, working_directory: Path | str, *, tool: str) -> None:
        self.tool = tool
        given = os.path.abspath(os.fspath(working_directory))
        self.root = os.path.realpath(given)
        if not os.path.isdir(self.root):
            raise FileToolError(
                f"The working directory {given!r} does not exist or is not a directory.",
                tool=tool,
                hint="Set working_directory in the agent config to an existing directory.",
            )
        self._root_spellings = [_split(self.root), _split(given)]

    # ------------------------------------------------------------------ resolving

    def resolve(self, raw: str) -> Target:
        """Resolve ``raw`` inside the working directory.

        Missing components are allowed (writes create them); nothing is opened.

        Raises:
            PathRejectedError: For a NUL byte, an escape (``..``, an absolute path, a link
                pointing out), a link loop.
            FileToolError: When a component in the middle of the path is a file, or the
                path cannot be examined (permission denied, name too long...).
        """
        if "\x00" in raw:
            raise self._rejected(raw, "the path contains a NUL byte", "nul")
        text = raw.strip()
        if os.path.isabs(text):
            inside = self._below_root(text)
            if inside is None:
                raise self._rejected(
                    raw,
                    f"the absolute path {text!r} is outside the working directory "
                    f"({self.root!r}); absolute paths are accepted only inside it",
                    "absolute",
                )
            pending: deque[tuple[str, str | None]] = deque((part, None) for part in inside)
        else:
            pending = deque((part, None) for part in _split(text))
        return self._walk(raw, pending)

    def _walk(self, raw: str, pending: deque[tuple[str, str | None]]) -> Target:
        """Walk ``pending`` components (each with the link it came from, if any)."""
        parts: list[str] = []
        hops = 0
        missing = False
        while pending:
            part, via_link = pending.popleft()
            if part == "..":
                if not parts:
                    raise self._escape(raw, via_link)
                parts.pop()
                if missing:
                    missing = not os.path.lexists(os.path.join(self.root, *parts))
                continue
            parts.append(part)
            if missing:
                continue
            full = os.path.join(self.root, *parts)
            try:
                info = os.lstat(full)
            except FileNotFoundError:
                missing = True
                continue
            except NotADirectoryError:
                raise self.not_a_directory(raw, parts[:-1]) from None
            except OSError as error:
                raise self._os_error(raw, error) from None
            if stat.S_ISLNK(info.st_mode):
                hops += 1
                link = "/".join(parts)
                if hops > MAX_SYMLINK_HOPS:
                    raise self._rejected(
                        raw,
                        f"the path runs into a symbolic link loop (at {link!r}, after "
                        f"{MAX_SYMLINK_HOPS} links)",
                        "loop",
                    )
                try:
                    destination = os.readlink(full)
                except OSError as error:
                    raise self._os_error(raw, error) from None
                parts.pop()
                if os.path.isabs(destination):
                    inside = self._below_root(destination)
                    if inside is None:
                        raise self._link_out(raw, link, destination)
                    parts.clear()
                    pending.extendleft((p, link) for p in reversed(inside))
                else:
                    pending.extendleft((p, link) for p in reversed(_split(destination)))
                continue
            if pending and not stat.S_ISDIR(info.st_mode):
                raise self.not_a_directory(raw, parts)
        real = os.path.join(self.root, *parts)
        final: os.stat_result | None = None
        if not missing:
            with contextlib.suppress(FileNotFoundError):
                final = os.lstat(real)
        return Target(raw, tuple(parts), real, final)

    def _below_root(self, absolute: str) -> list[str] | None:
        """The components of ``absolute`` below the working directory, or ``None``."""
        components = _split(absolute)
        for spelling in self._root_spellings:
            if components[: len(spelling)] == spelling:
                return components[len(spelling) :]
        return None

    # ------------------------------------------------------------------ checking

    def require_file(self, target: Target) -> os.stat_result:
        """Return the target's status if it is a regular file.

        Raises:
            FileToolError: It does not exist (with close names as suggestions) or is a
                directory.
            PathRejectedError: It is a FIFO, a socket or a device.
        """
        info = target.stat
        if info is None:
            raise self.not_found(target)
        if stat.S_ISDIR(info.st_mode):
            raise FileToolError(
                f"{target.relative!r} is a directory, not a file.",
                tool=self.tool,
                path=target.raw,
                hint="Use list_dir to see its entries, or give the path of a file in it.",
            )
        if not stat.S_ISREG(info.st_mode):
            raise self.special_file(target.raw, target.relative, info.st_mode)
        return info

    def require_directory(self, target: Target) -> None:
        """Check that the target is an existing directory.

        Raises:
            FileToolError: It does not exist or is not a directory.
        """
        if target.stat is None:
            raise self.not_found(target)
        if not stat.S_ISDIR(target.stat.st_mode):
            raise FileToolError(
                f"{target.relative!r} is a {describe_mode(target.stat.st_mode)}, not a directory.",
                tool=self.tool,
                path=target.raw,
                hint="Give the path of a directory ('.' for the working directory).",
            )

    def special_file(self, raw: str, relative: str, mode: int) -> PathRejectedError:
        """The error for a FIFO, socket or device at ``relative``."""
        return PathRejectedError(
            f"{relative!r} is a {describe_mode(mode)}, not a regular file; FIFOs, sockets and "
            "devices are never opened.",
            tool=self.tool,
            path=raw,
            reason=_special_reason(mode),
            hint="Only regular files (and directories, for listing) are accepted.",
        )

    def not_found(self, target: Target) -> FileToolError:
        """The error for a path that does not exist, suggesting close names nearby."""
        hint = "Use list_dir to see which files exist."
        suggestions = self._close_names(target.parts)
        if suggestions:
            hint = "Did you mean " + " or ".join(repr(name) for name in suggestions) + "?"
        return FileToolError(
            f"{target.relative!r} does not exist in the working directory.",
            tool=self.tool,
            path=target.raw,
            hint=hint,
        )

    def _close_names(self, parts: tuple[str, ...]) -> list[str]:
        import difflib

        if not parts:
            return []
        parent = os.path.join(self.root, *parts[:-1])
        try:
            with os.scandir(parent) as entries:
                names = [entry.name for entry in itertools.islice(entries, 2000)]
        except OSError:
            return []
        close = difflib.get_close_matches(parts[-1], names, n=3, cutoff=0.6)
        return ["/".join((*parts[:-1], name)) for name in close]

    # ------------------------------------------------------------------ opening

    def entry_target(self, parts: tuple[str, ...]) -> Target:
        """The target of a walked entry (``parts`` are link-free, as a walk yields them)."""
        real = os.path.join(self.root, *parts)
        info: os.stat_result | None = None
        with contextlib.suppress(FileNotFoundError):
            info = os.lstat(real)
        return Target("/".join(parts), parts, real, info)

    def open_file(self, target: Target) -> int:
        """Open the regular file ``target`` for reading; return the file descriptor.

        Raises:
            FileToolError, PathRejectedError: See :meth:`require_file`; also when the file
                was swapped (for a link, a FIFO, another file) since it was resolved.
        """
        expected = self.require_file(target)
        try:
            fd = self._open(target.parts, READ_FLAGS)
        except OSError as error:
            raise self.open_error(target, error) from None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or not same_file(info, expected):
                raise self.changed_error(target)
            if NONBLOCK:
                os.set_blocking(fd, True)
        except BaseException:
            os.close(fd)
            raise
        return fd

    @contextlib.contextmanager
    def open_directory(self, parts: tuple[str, ...]) -> Iterator[int | str]:
        """Open the directory ``parts`` (link-free components) for listing.

        Yields:
            A directory file descriptor to pass to :func:`os.scandir`, or the directory's
            path on platforms without ``dir_fd`` support.

        Raises:
            OSError: It cannot be opened (permission denied, swapped for a link...).
        """
        if not USE_DIR_FD:
            yield os.path.join(self.root, *parts)
            return
        fd = self._open(parts, DIR_FLAGS)
        try:
            yield fd
        finally:
            os.close(fd)

    def _open(self, parts: tuple[str, ...], flags: int) -> int:
        """Open ``parts`` component by component, never following a link."""
        if not USE_DIR_FD:
            return os.open(os.path.join(self.root, *parts), flags)
        fd = os.open(self.root, DIR_FLAGS)
        try:
            for index, part in enumerate(parts):
                last = index == len(parts) - 1
                child = os.open(part, flags if last else DIR_FLAGS, dir_fd=fd)
                os.close(fd)
                fd = child
            if not parts and flags != DIR_FLAGS:
                raise IsADirectoryError(21, "Is a directory")
        except BaseException:
            os.close(fd)
            raise
        return fd

    # ------------------------------------------------------------------ errors

    def _rejected(self, raw: str, problem: str, reason: str) -> PathRejectedError:
        return PathRejectedError(
            f"Path {_show(raw)} refused: {problem}.",
            tool=self.tool,
            path=raw,
            reason=reason,
            problem=problem,
        )

    def _escape(self, raw: str, via_link: str | None) -> PathRejectedError:
        if via_link is not None:
            return self._rejected(
                raw,
                f"the symbolic link {via_link!r} points outside the working directory "
                "(through '..'); links are followed only when they stay inside it",
                "symlink",
            )
        return self._rejected(
            raw,
            "'..' climbs above the working directory, to a path outside the working "
            "directory; only paths inside it are accepted",
            "parent",
        )

    def _link_out(self, raw: str, link: str, destination: str) -> PathRejectedError:
        return self._rejected(
            raw,
            f"{link!r} is a symbolic link to {destination!r}, outside the working directory; "
            "links are followed only when they stay inside it",
            "symlink",
        )

    def changed_error(self, target: Target) -> PathRejectedError:
        """The error for a file swapped (for a link or another file) since it was resolved."""
        return PathRejectedError(
            f"{target.relative!r} was replaced (by a link or another file) while it was being "
            "opened; it was not used.",
            tool=self.tool,
            path=target.raw,
            reason="changed",
            hint="Try again; if it keeps happening, something else is changing the file.",
        )

    def not_a_directory(self, raw: str, parts: list[str]) -> FileToolError:
        """The error for a path going through ``parts``, which name a file."""
        where = "/".join(parts)
        return FileToolError(
            f"Path {_show(raw)}: {where!r} is a file, not a directory, so nothing can be "
            "inside it.",
            tool=self.tool,
            path=raw,
            hint=RELATIVE_PATH_HINT,
        )

    def _os_error(self, raw: str, error: OSError) -> FileToolError:
        return FileToolError(
            f"Path {_show(raw)} cannot be examined: {error.strerror or error}.",
            tool=self.tool,
            path=raw,
            hint=RELATIVE_PATH_HINT,
        )

    def open_error(self, target: Target, error: OSError, *, writing: bool = False) -> FileToolError:
        """The error for an ``OSError`` while opening (or writing) ``target``."""
        if isinstance(error, FileNotFoundError):
            return self.not_found(target)
        if NOFOLLOW and error.errno in LINK_ERRNOS:
            return self.changed_error(target)
        verb = "written" if writing else "opened"
        return FileToolError(
            f"{target.relative!r} cannot be {verb}: {error.strerror or error}.",
            tool=self.tool,
            path=target.raw,
        )


def _split(path: str) -> list[str]:
    """The components of ``path`` (``/`` and the platform separator), empty ones dropped."""
    if os.sep != "/":
        path = path.replace(os.sep, "/")
    if os.altsep and os.altsep != "/":
        path = path.replace(os.altsep, "/")
    drive, path = os.path.splitdrive(path)
    parts = [part for part in path.split("/") if part not in ("", ".")]
    return [drive, *parts] if drive else parts


def same_file(a: os.stat_result, b: os.stat_result) -> bool:
    """Whether two statuses describe the same file (device and inode)."""
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _show(raw: str) -> str:
    """``raw`` quoted for a message, cut when long, NUL bytes visible."""
    shown = raw if len(raw) <= 200 else raw[:200] + "..."
    return repr(shown)
