r"""The ``search_text`` tool: lines matching a plain text or a regular expression.

Results read ``path:line: text``, in walk order (sorted paths, each file's lines in order);
one result per matching line; a long line is cut to ``max_line_chars`` around its first match.

Bounds on work: ``max_matches`` results, ``max_files`` files searched, ``max_bytes`` bytes
read, and the entries the walk examines; when one stops the search, the answer says which and
that results are partial. These bounds count work, never seconds, so the answer is the same
on every machine. Binary files (see :mod:`gent_tools_files.text`), symbolic links (never
followed), FIFOs, sockets, devices and unreadable files are skipped and counted in the answer.

CPU-safe regular expressions: patterns go through the core's bounded helper
(:func:`gent_core.bounds.compile_pattern`: the ``regex`` module, the syntax of Python's
``re``, which takes a timeout and releases the GIL while it matches). The engine has
no step budget, so its time is the one bound in seconds, a safety net, of two lengths: one
match (the pattern on one chunk of lines, or on one line) may take the deadline of every
pattern gent did not write (:func:`~gent_core.bounds.pattern_timeout`: 1 s, or
``GENT_PATTERN_TIMEOUT``), and the matching in one call ``time_limit`` seconds in all
(reading and walking do not count). A pattern that backtracks catastrophically (such as
``(a|aa)+$``) is stopped at the first of them, and the answer says the results are partial
and why; while it runs the other tools and the agent loop keep going. Files are searched a
chunk of whole lines at a time (fast: the engine scans the chunk, and only lines with a match
are looked at one by one); each reported line is checked on its own, so a match must lie
within one line (``^`` and ``$`` anchor a line; ``\A`` and ``\Z`` do not).
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import Field

from gent_core.bounds import (
    BoundedPattern,
    PatternError,
    PatternTimeoutError,
    compile_pattern,
    pattern_timeout,
)
from gent_core.context import Cancellation
from gent_core.workspace import Target, Workspace
from gent_tools_files.base import DEFAULT_SKIP_DIRS, FileTool, FileToolOptions
from gent_tools_files.errors import BinaryFileError, FileToolError
from gent_tools_files.examples import EXAMPLES
from gent_tools_files.globs import GlobError
from gent_tools_files.listing import compile_glob, glob_error
from gent_tools_files.text import LineReader, ReadLimitReached, human_size, sniff_binary
from gent_tools_files.walk import WalkReport, show_name, walk

if TYPE_CHECKING:
    from collections.abc import Callable

    import regex

    from gent_core.context import ExecutionContext

__all__ = ["MAX_PATTERN_CHARS", "SearchText", "SearchTextOptions"]

MAX_PATTERN_CHARS = 1000
"""Longest pattern accepted."""

_LINE_BYTES = 1 << 20  # a line spanning chunks is searched in its first MiB
_SKIP_NAMES = {
    "binary": ("binary file", "binary files"),
    "link": ("symbolic link (not followed)", "symbolic links (not followed)"),
    "special": ("FIFO, socket or device", "FIFOs, sockets or devices"),
    "unreadable": ("unreadable file", "unreadable files"),
}


def _max_scan(max_files: int) -> int:
    """Directory entries a search examines at most (files, skipped entries, directories)."""
    return 10 * max_files + 100_000


class _OutOfTime(Exception):
    """The regular expression engine used up the time bound."""


class SearchTextOptions(FileToolOptions):
    """Options of ``search_text`` (set in the agent config).

    Attributes:
        max_matches: Matching lines reported at most.
        max_files: Files searched at most in one call.
        max_bytes: Bytes of files read at most in one call.
        time_limit: Seconds the regular expression engine may spend matching in one call (a
            safety net against catastrophic backtracking; reading and walking do not count).
            Each match is held to the shorter deadline of every pattern gent did not write
            (1 s, ``GENT_PATTERN_TIMEOUT``).
        max_line_chars: Characters of a matching line shown at most.
        skip_dirs: Directory names a search does not enter unless given as the path.
    """

    max_matches: int = Field(100, ge=1, le=100_000)
    max_files: int = Field(10_000, ge=1)
    max_bytes: int = Field(256 * 1024 * 1024, ge=1)
    time_limit: float = Field(10.0, gt=0, le=3600)
    max_line_chars: int = Field(200, ge=20, le=100_000)
    skip_dirs: tuple[str, ...] = DEFAULT_SKIP_DIRS


@dataclass
class _Search:
    """The state of one search: results, counts and why it stopped."""

    compiled: BoundedPattern
    check: Callable[[], None]  # raises when the run is cancelled
    time_limit: float  # seconds of matching in all
    match_deadline: float  # seconds of one match (the process-wide pattern deadline)
    bytes_left: int
    max_matches: int
    max_line_chars: int
    matching_seconds: float = 0.0
    results: list[str] = field(default_factory=list)
    files_searched: int = 0
    files_matched: int = 0
    long_lines: int = 0
    skipped: dict[str, list[str]] = field(default_factory=dict)
    stopped: str | None = None  # "matches", "files", "bytes", "entries" or "time"
    slow_file: str | None = None
    slow_match: float | None = None  # the deadline one match ran out of, if not time_limit

    def skip(self, reason: str, path: str) -> None:
        self.skipped.setdefault(reason, []).append(path)

    def search_file(self, workspace: Workspace, target: Target, *, explicit: bool) -> None:
        """Search one regular file (``explicit``: named by the model, so binary is an error)."""
        try:
            fd = workspace.open_file(target)
        except FileToolError as error:
            if explicit:
                raise
            self.skip("unreadable", f"{target.relative} ({error.message})")
            return
        try:
            reader = LineReader(
                fd, max_line_bytes=_LINE_BYTES, check=self.check, max_bytes=self.bytes_left
            )
            head = reader.peek()
            size = os.fstat(fd).st_size
            kind = sniff_binary(head, complete=size <= len(head))
            if kind is not None:
                if explicit:
                    raise BinaryFileError(
                        f"{target.relative!r} is a binary file ({kind}); it is not searched.",
                        tool="search_text",
                        path=target.raw,
                        kind=kind,
                        size=size,
                    )
                self.skip("binary", target.relative)
                return
            self.files_searched += 1
            found_before = len(self.results)
            try:
                self._search_lines(reader, show_name(target.relative))
            except ReadLimitReached:
                self.stopped = "bytes"
            finally:  # also when a bound stopped it inside the file
                self.bytes_left -= reader.bytes_read
                self.files_matched += len(self.results) > found_before
        except OSError as error:
            self.skip("unreadable", f"{target.relative} ({error.strerror or error})")
        finally:
            os.close(fd)

    def _search_lines(self, reader: LineReader, shown: str) -> None:
        for block in reader.blocks():
            self.long_lines += len(block.cut)
            text = block.data.decode("utf-8", "replace")
            position = 0
            line = block.first_line
            counted_to = 0
            while position < len(text):
                found = self._find(text, position, shown)
                if found is None:
                    break
                line += text.count("\n", counted_to, found)
                start = text.rfind("\n", 0, found) + 1
                end = text.find("\n", found)
                end = len(text) if end < 0 else end
                counted_to = start
                shown_line = self._shown_line(text[start:end], shown)
                if shown_line is not None:
                    self.results.append(f"{shown}:{line}: {shown_line}")
                    if len(self.results) >= self.max_matches:
                        self.stopped = "matches"
                        break
                position = end + 1
            if self.stopped:
                break

    def _match(self, text: str, position: int, shown: str) -> regex.Match[str] | None:
        """The first match in ``text`` from ``position``, within the matching time left.

        Raises:
            _OutOfTime: The engine used up the time bound (on this file, noted).
        """
        left = max(self.time_limit - self.matching_seconds, 0.001)
        deadline = min(left, self.match_deadline)
        started = time.perf_counter()
        try:
            return self.compiled.search(text, position, timeout=deadline)
        except PatternTimeoutError:
            self.slow_file = shown
            if deadline < left:
                self.slow_match = deadline
            raise _OutOfTime from None
        finally:
            self.matching_seconds += time.perf_counter() - started

    def _find(self, text: str, position: int, shown: str) -> int | None:
        """Where the next match starts in ``text`` from ``position``, or ``None``."""
        match = self._match(text, position, shown)
        return None if match is None else match.start()

    def _shown_line(self, line: str, shown: str) -> str | None:
        """The line as shown (cut around its first match), or ``None`` if it alone does not
        match (a match that spanned lines in the chunk).
        """
        line = line.removesuffix("\r")
        match = self._match(line, 0, shown)
        if match is None:
            return None
        line = line.replace("\x00", "\ufffd")
        limit = self.max_line_chars
        if len(line) <= limit:
            return line
        start = max(0, min(match.start() - limit // 3, len(line) - limit))
        snippet = line[start : start + limit]
        return ("..." if start else "") + snippet + ("..." if start + limit < len(line) else "")


class SearchText(FileTool):
    """``search_text``: find lines matching a text or a regular expression."""

    name = "search_text"
    description = (
        "Search the text files of a directory (or one file) for lines containing a text or "
        "matching a regular expression; results read path:line: text."
    )
    parameters = {  # noqa: RUF012 - read-only, checked when the class is defined
        "type": "object",
        "properties": {
            "pattern": {
                "type": "string",
                "minLength": 1,
                "maxLength": MAX_PATTERN_CHARS,
                "description": "the text to find (a regular expression when regex is true)",
            },
            "path": {
                "type": "string",
                "default": ".",
                "description": "a directory (searched recursively) or a file",
            },
            "regex": {
                "type": "boolean",
                "default": False,
                "description": "read pattern as a Python regular expression",
            },
            "ignore_case": {
                "type": "boolean",
                "default": False,
                "description": "match regardless of case",
            },
            "glob": {
                "type": "string",
                "description": "only files matching it, e.g. *.py (a name) or src/**/*.md",
            },
        },
        "required": ["pattern"],
        "additionalProperties": False,
    }
    examples = EXAMPLES["search_text"]
    Options = SearchTextOptions
    options: SearchTextOptions

    def run(
        self,
        working_directory: Path,
        pattern: str,
        path: str = ".",
        regex: bool = False,
        ignore_case: bool = False,
        glob: str | None = None,
        context: ExecutionContext | None = None,
    ) -> str:
        """Search (see the module docstring)."""
        cancellation = context.cancellation if context is not None else Cancellation()
        compiled = self._compile(pattern, regex=regex, ignore_case=ignore_case)
        workspace = Workspace(working_directory, tool=self.name)
        target = workspace.resolve(path)
        search = _Search(
            compiled,
            check=cancellation.raise_if_cancelled,
            time_limit=self.options.time_limit,
            match_deadline=pattern_timeout(),
            bytes_left=self.options.max_bytes,
            max_matches=self.options.max_matches,
            max_line_chars=self.options.max_line_chars,
        )
        report = WalkReport()
        try:
            if target.is_dir:
                self._search_tree(workspace, target, glob, search, report)
            else:
                workspace.require_file(target)
                search.search_file(workspace, target, explicit=True)
        except _OutOfTime:
            search.stopped = search.stopped or "time"
        return self._answer(pattern, target, search, report, ignore_case)

    def _compile(self, pattern: str, *, regex: bool, ignore_case: bool) -> BoundedPattern:
        if "\n" in pattern or "\r" in pattern:
            raise FileToolError(
                "The pattern contains a line break, but search_text matches within one line.",
                tool=self.name,
                hint="Search for one line's text (or a regular expression for one line).",
            )
        flags = re.MULTILINE | (re.IGNORECASE if ignore_case else 0)
        try:
            return compile_pattern(pattern if regex else re.escape(pattern), flags)
        except PatternError as error:
            if error.syntax_error is None:
                raise FileToolError(
                    f"The regular expression {pattern[:200]!r} cannot be used: {error.problem}.",
                    tool=self.name,
                    hint="Use a simpler pattern.",
                ) from None
            raise FileToolError(
                f"The regular expression {pattern[:200]!r} is invalid: {error.syntax_error}.",
                tool=self.name,
                hint=(
                    "Write a Python regular expression (escape special characters such as "
                    "( [ . * with a backslash), or set regex to false to search plain text."
                ),
            ) from None

    def _search_tree(
        self,
        workspace: Workspace,
        target: Target,
        glob: str | None,
        search: _Search,
        report: WalkReport,
    ) -> None:
        pattern = compile_glob(glob, tool=self.name) if glob else None
        by_name = pattern is not None and "/" not in pattern.pattern.strip("/")
        start = target.parts

        def below(parts: tuple[str, ...]) -> str:
            return "/".join(parts[len(start) :])

        entries = walk(
            workspace,
            start,
            recursive=True,
            check=search.check,
            report=report,
            skip_dirs=frozenset(self.options.skip_dirs),
            descend=lambda entry: (
                pattern is None or by_name or pattern.may_contain(below(entry.parts), entry.depth)
            ),
            max_scan=_max_scan(self.options.max_files),
        )
        try:
            for entry in entries:
                if entry.kind == "dir":
                    continue
                if pattern is not None and not pattern.match(
                    entry.parts[-1] if by_name else below(entry.parts)
                ):
                    continue
                if entry.kind == "link":
                    search.skip("link", entry.relative)
                    continue
                if entry.kind != "file":
                    search.skip("special", entry.relative)
                    continue
                if search.files_searched >= self.options.max_files:
                    search.stopped = "files"
                    break
                if search.bytes_left <= 0:
                    search.stopped = "bytes"
                    break
                search.search_file(workspace, workspace.entry_target(entry.parts), explicit=False)
                if search.stopped:
                    break
        except GlobError as error:
            raise glob_error(glob or "", error, tool=self.name) from None
        except OSError as error:
            raise FileToolError(
                f"{target.relative!r} cannot be listed: {error.strerror or error}.",
                tool=self.name,
                path=target.raw,
            ) from None
        if report.stopped == "entries":
            search.stopped = search.stopped or "entries"

    def _answer(
        self,
        pattern: str,
        target: Target,
        search: _Search,
        report: WalkReport,
        ignore_case: bool,
    ) -> str:
        lines = list(search.results)
        files = f"{search.files_searched:,} file{'' if search.files_searched == 1 else 's'}"
        if search.results:
            lines.append(
                f"[{len(search.results):,} matching line{'s' if len(search.results) > 1 else ''} "
                f"in {search.files_matched:,} file{'s' if search.files_matched > 1 else ''}; "
                f"{files} searched]"
            )
        else:
            case = "" if ignore_case else " (case-sensitive; set ignore_case to ignore case)"
            lines.append(
                f"[no line matches {pattern[:100]!r} in {target.label}: {files} searched{case}]"
            )
        notes = self._stop_notes(search)
        for reason, paths in search.skipped.items():
            singular, plural = _SKIP_NAMES[reason]
            shown = ", ".join(show_name(p) for p in paths[:5])
            more = f", and {len(paths) - 5} more" if len(paths) > 5 else ""
            notes.append(
                f"skipped {len(paths):,} {singular if len(paths) == 1 else plural}: {shown}{more}"
            )
        if search.long_lines:
            notes.append(
                f"{search.long_lines:,} line(s) longer than 1 MiB were searched in their first "
                "MiB only"
            )
        notes.extend(report.notes())
        lines.extend(f"[{note}]" for note in notes)
        return "\n".join(lines)

    def _stop_notes(self, search: _Search) -> list[str]:
        if search.stopped == "matches":
            return [
                f"stopped at {self.options.max_matches:,} matching lines; there may be more: "
                "narrow the search with path, glob or a more precise pattern"
            ]
        if search.stopped == "files":
            return [
                f"stopped after searching {self.options.max_files:,} files; results are "
                "partial: narrow the search with path or glob"
            ]
        if search.stopped == "bytes":
            size = self.options.max_bytes
            return [
                f"stopped after reading {human_size(size)} ({size:,} bytes, the max_bytes "
                "bound); results are partial: narrow the search with path or glob"
            ]
        if search.stopped == "entries":
            return [
                f"stopped after examining {_max_scan(self.options.max_files):,} directory "
                "entries; results are partial: narrow the search with path or glob"
            ]
        if search.stopped != "time":
            return []
        if search.slow_match is not None:
            return [
                f"stopped: matching the pattern in {search.slow_file} took longer than "
                f"{search.slow_match:g} s (the deadline of one match, GENT_PATTERN_TIMEOUT); "
                "results are partial; it may backtrack catastrophically: avoid nested "
                "repetition such as (a+)+ or (a|aa)*"
            ]
        note = (
            f"stopped at the {self.options.time_limit:g} s bound on matching time; results are "
            "partial"
        )
        if search.slow_file is not None:
            note += (
                f" (matching the pattern in {search.slow_file} took too long: it may backtrack "
                "catastrophically; avoid nested repetition such as (a+)+ or (a|aa)*)"
            )
        return [note]
