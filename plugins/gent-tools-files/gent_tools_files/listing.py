"""The ``list_dir`` tool: the entries of a directory, optionally filtered by a glob.

One entry per line, as a path relative to the working directory (ready to pass to the other
tools), sorted by path; directories end with ``/``; links, FIFOs, sockets and devices say what
they are. A glob with ``**`` or a ``/`` lists recursively. At most ``max_entries`` lines are
shown, followed by how many were left out; directories not entered (``skip_dirs``), unreadable
ones and a walk stopped by the ``max_scan`` bound (entries examined, never seconds, so the
listing is the same on every machine) are always said.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import Field

from gent_core.context import Cancellation
from gent_core.workspace import Workspace
from gent_tools_files.base import DEFAULT_SKIP_DIRS, FileTool, FileToolOptions
from gent_tools_files.errors import FileToolError, PathRejectedError
from gent_tools_files.examples import EXAMPLES
from gent_tools_files.globs import Glob, GlobError
from gent_tools_files.walk import Entry, WalkReport, show_name, walk

if TYPE_CHECKING:
    from gent_core.context import ExecutionContext

__all__ = ["GLOB_HINT", "ListDir", "ListDirOptions", "compile_glob"]

GLOB_HINT = (
    "Globs use * (within a name), ? and [abc] (one character), {a,b} (either) and ** (any "
    "number of directories), for example '*.py', 'src/**/*.md' or '**/test_*.py'."
)
"""What a glob may be, for error hints."""

_KIND_NOTES = {
    "fifo": " (named pipe)",
    "socket": " (socket)",
    "device": " (device)",
    "other": " (special file)",
}


class ListDirOptions(FileToolOptions):
    """Options of ``list_dir`` (set in the agent config).

    Attributes:
        max_entries: Entries shown at most; the rest are counted.
        max_scan: Entries examined at most in one call (a recursive glob over a huge tree).
        skip_dirs: Directory names a recursive listing shows but does not enter.
    """

    max_entries: int = Field(200, ge=1, le=100_000)
    max_scan: int = Field(200_000, ge=1)
    skip_dirs: tuple[str, ...] = DEFAULT_SKIP_DIRS


def compile_glob(pattern: str, *, tool: str) -> Glob:
    """Compile a glob the model wrote.

    Raises:
        FileToolError: Saying what was wrong and how globs are written.
    """
    try:
        return Glob.compile(pattern)
    except GlobError as error:
        raise glob_error(pattern, error, tool=tool) from None


def glob_error(pattern: str, error: GlobError, *, tool: str) -> FileToolError:
    """The error for a glob that cannot be used (when compiled, or while matching)."""
    return FileToolError(
        f"The glob {pattern[:100]!r} cannot be used: {error}.", tool=tool, hint=GLOB_HINT
    )


class ListDir(FileTool):
    """``list_dir``: list a directory of the working directory."""

    name = "list_dir"
    description = (
        "List the entries of a directory in the working directory (directories end with /). "
        "A glob filters them; with ** it lists recursively."
    )
    parameters = {  # noqa: RUF012 - read-only, checked when the class is defined
        "type": "object",
        "properties": {
            "path": {
                "type": "string",
                "default": ".",
                "description": "the directory, relative to the working directory",
            },
            "glob": {
                "type": "string",
                "description": "only entries matching it, e.g. *.py or **/*.md (recursive)",
            },
            "sizes": {
                "type": "boolean",
                "default": False,
                "description": "show each file's size",
            },
        },
        "additionalProperties": False,
    }
    examples = EXAMPLES["list_dir"]
    Options = ListDirOptions
    options: ListDirOptions

    def run(
        self,
        working_directory: Path,
        path: str = ".",
        glob: str | None = None,
        sizes: bool = False,
        context: ExecutionContext | None = None,
    ) -> str:
        """List ``path`` (see the module docstring)."""
        cancellation = context.cancellation if context is not None else Cancellation()
        workspace = Workspace(working_directory, tool=self.name)
        target = workspace.resolve(path)
        workspace.require_directory(target)
        pattern = compile_glob(glob, tool=self.name) if glob else None
        start = target.parts
        report = WalkReport()

        def below(entry: Entry) -> str:
            return "/".join(entry.parts[len(start) :])

        entries = walk(
            workspace,
            start,
            recursive=pattern is not None and pattern.recursive,
            check=cancellation.raise_if_cancelled,
            report=report,
            skip_dirs=frozenset(self.options.skip_dirs),
            descend=lambda entry: pattern is None or pattern.may_contain(below(entry), entry.depth),
            sizes=sizes,
            max_scan=self.options.max_scan,
        )
        shown: list[str] = []
        counts = {"dir": 0, "file": 0, "other": 0}
        try:
            for entry in entries:
                if pattern is not None and not pattern.match(below(entry)):
                    continue
                counts[entry.kind if entry.kind in ("dir", "file") else "other"] += 1
                if len(shown) < self.options.max_entries:
                    shown.append(self._line(workspace, entry))
        except GlobError as error:
            raise glob_error(glob or "", error, tool=self.name) from None
        except OSError as error:
            raise FileToolError(
                f"{target.relative!r} cannot be listed: {error.strerror or error}.",
                tool=self.name,
                path=path,
            ) from None
        return self._answer(target.label, glob, shown, counts, report)

    def _line(self, workspace: Workspace, entry: Entry) -> str:
        name = show_name(entry.relative)
        if entry.kind == "dir":
            return name + "/"
        if entry.kind == "file":
            return name if entry.size is None else f"{name} ({entry.size:,} bytes)"
        if entry.kind == "link":
            return name + _link_note(workspace, entry)
        return name + _KIND_NOTES.get(entry.kind, "")

    def _answer(
        self,
        where: str,
        glob: str | None,
        shown: list[str],
        counts: dict[str, int],
        report: WalkReport,
    ) -> str:
        total = sum(counts.values())
        lines = list(shown)
        if not total:
            what = f"no entry matches {glob!r} in {where}" if glob else f"{where} is empty"
            lines.append(f"[{what}]")
        else:
            parts = [f"{counts['dir']:,} director{'y' if counts['dir'] == 1 else 'ies'}"]
            parts.append(f"{counts['file']:,} file{'' if counts['file'] == 1 else 's'}")
            if counts["other"]:
                parts.append(f"{counts['other']:,} other")
            summary = f"[{total:,} entr{'y' if total == 1 else 'ies'}: {', '.join(parts)}"
            if total > len(shown):
                summary += (
                    f"; only the first {len(shown):,} are shown ({total - len(shown):,} more "
                    "left out): narrow with a glob or list a subdirectory"
                )
            lines.append(summary + "]")
        notes = report.notes()
        if report.stopped == "entries":
            notes.append(
                f"the walk stopped after examining {self.options.max_scan:,} entries, so the "
                "listing is incomplete"
            )
        lines.extend(f"[{note}]" for note in notes)
        return "\n".join(lines)


def _link_note(workspace: Workspace, entry: Entry) -> str:
    """`` -> target (what it is)`` for a symbolic link entry."""
    try:
        destination = os.readlink(os.path.join(workspace.root, *entry.parts))
    except OSError:
        return " (symbolic link)"
    arrow = f" -> {show_name(destination)}"
    try:
        resolved = workspace.resolve(entry.relative)
    except PathRejectedError as error:
        if error.reason == "loop":
            return arrow + " (symbolic link loop)"
        return arrow + " (outside the working directory; not followed)"
    except FileToolError:
        return arrow + " (broken link)"
    if not resolved.exists:
        return arrow + " (broken link)"
    if resolved.is_dir:
        return arrow + " (link to a directory)"
    if resolved.is_file:
        return arrow + " (link to a file)"
    return arrow + " (link to a special file)"
