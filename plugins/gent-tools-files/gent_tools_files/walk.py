"""Walking a directory tree inside the working directory, in a deterministic order.

:func:`walk` yields every entry below a directory depth first, each directory's entries
sorted by name (code point order), so the output is the same on every run and every
platform. It never follows a symbolic link (a link is an entry of kind ``"link"``), so it
cannot leave the working directory or loop; directories are opened through the
:class:`~gent_core.workspace.Workspace` (component by component, ``O_NOFOLLOW``).

What it does not enter is recorded in a :class:`WalkReport`, never skipped silently: the
directories named in ``skip_dirs``, the directories it could not read (with the reason), and
where it stopped when the entry bound was reached. The bound counts entries, not seconds, so
a walk yields the same entries on every machine.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from gent_core.workspace import Workspace

__all__ = ["Entry", "WalkReport", "show_name", "walk"]

_CHECK_EVERY = 512


def show_name(path: str) -> str:
    """``path`` as shown to the model: as is, or escaped when it has control characters or
    bytes that are not UTF-8 (so one entry stays on one line).
    """
    return path if path.isprintable() else ascii(path)


@dataclass(frozen=True)
class Entry:
    """One directory entry.

    Attributes:
        parts: Its path below the working directory.
        kind: ``"dir"``, ``"file"``, ``"link"``, ``"fifo"``, ``"socket"``, ``"device"`` or
            ``"other"`` (never following a link).
        size: Its size in bytes (files, when sizes were asked for).
        depth: Components below the walk's start (1 for the start's own entries).
    """

    parts: tuple[str, ...]
    kind: str
    size: int | None
    depth: int

    @property
    def relative(self) -> str:
        """The path relative to the working directory, with ``/``."""
        return "/".join(self.parts)


@dataclass
class WalkReport:
    """What a walk did not do, to tell the model.

    Attributes:
        scanned: Entries seen.
        not_entered: Directories listed but not entered (``skip_dirs``).
        unreadable: Directories that could not be listed, with the reason.
        stopped: ``"entries"`` when the entry bound stopped the walk, else ``None``.
    """

    scanned: int = 0
    not_entered: list[str] = field(default_factory=list)
    unreadable: list[tuple[str, str]] = field(default_factory=list)
    stopped: str | None = None

    def notes(self) -> list[str]:
        """Sentences for the model about what was not walked."""
        notes: list[str] = []
        if self.not_entered:
            groups: dict[str, list[str]] = {}
            for path in self.not_entered:
                groups.setdefault(path.rsplit("/", 1)[-1], []).append(path)
            names = [
                show_name(paths[0]) if len(paths) == 1 else f"{len(paths)} {show_name(name)}"
                for name, paths in groups.items()
            ]
            shown = ", ".join(names[:10])
            more = f" and {len(names) - 10} more" if len(names) > 10 else ""
            notes.append(
                f"not entered (skip_dirs option): {shown}{more}; name one as the path to look "
                "inside"
            )
        if self.unreadable:
            shown = ", ".join(f"{show_name(p)} ({why})" for p, why in self.unreadable[:10])
            more = f" and {len(self.unreadable) - 10} more" if len(self.unreadable) > 10 else ""
            notes.append(f"could not be read: {shown}{more}")
        return notes


def _kind(entry: os.DirEntry[str]) -> str:
    if entry.is_symlink():
        return "link"
    if entry.is_dir(follow_symlinks=False):
        return "dir"
    if entry.is_file(follow_symlinks=False):
        return "file"
    try:
        mode = entry.stat(follow_symlinks=False).st_mode
    except OSError:
        return "other"
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    return "other"


def _list(
    workspace: Workspace,
    parts: tuple[str, ...],
    depth: int,
    *,
    sizes: bool,
    check: Callable[[], None],
    report: WalkReport,
    max_scan: int,
) -> list[Entry]:
    """The entries of one directory, sorted by name."""
    found: list[Entry] = []
    with workspace.open_directory(parts) as handle, os.scandir(handle) as entries:
        for index, item in enumerate(entries):
            if index % _CHECK_EVERY == 0:
                check()
            if report.scanned >= max_scan:
                report.stopped = "entries"
                break
            report.scanned += 1
            kind = _kind(item)
            size = None
            if sizes and kind == "file":
                try:
                    size = item.stat(follow_symlinks=False).st_size
                except OSError:
                    size = None
            found.append(Entry((*parts, item.name), kind, size, depth))
    found.sort(key=lambda entry: entry.parts[-1])
    return found


def walk(
    workspace: Workspace,
    start: tuple[str, ...],
    *,
    recursive: bool,
    check: Callable[[], None],
    report: WalkReport,
    skip_dirs: frozenset[str] = frozenset(),
    descend: Callable[[Entry], bool] = lambda entry: True,
    sizes: bool = False,
    max_scan: int = 1_000_000,
) -> Iterator[Entry]:
    """Yield the entries below the directory ``start`` (link-free components).

    Args:
        workspace: The working directory.
        start: The directory to walk, below the working directory.
        recursive: Whether to enter subdirectories.
        check: Called regularly; raise from it to stop (the run's cancellation).
        report: Filled with what was not walked.
        skip_dirs: Directory names listed but not entered (noted in the report).
        descend: Whether to enter a directory entry (for globs that cannot match inside).
        sizes: Whether to fill :attr:`Entry.size` for files.
        max_scan: Entries seen at most (``report.stopped = "entries"`` beyond).

    Raises:
        OSError: The start directory itself cannot be listed.
    """

    def listing(parts: tuple[str, ...], depth: int) -> list[Entry]:
        return _list(
            workspace, parts, depth, sizes=sizes, check=check, report=report, max_scan=max_scan
        )

    stack = [iter(listing(start, 1))]
    while stack:
        entry = next(stack[-1], None)
        if entry is None:
            stack.pop()
            continue
        yield entry
        if not (recursive and entry.kind == "dir") or report.stopped:
            continue
        shown = entry.relative
        if not descend(entry):
            continue
        if entry.parts[-1] in skip_dirs:
            report.not_entered.append(shown)
            continue
        try:
            children = listing(entry.parts, entry.depth + 1)
        except OSError as error:
            report.unreadable.append((shown, error.strerror or type(error).__name__))
            continue
        stack.append(iter(children))
