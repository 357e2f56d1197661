"""The Markdown section scanner: one state machine behind both one-shot and streaming parsing.

Only lines that *start* with ``#``, a backtick, a tilde, or up to three spaces and then a
backtick or tilde can change the state (open a section, open or close a code fence); the
scanner jumps from one such line to the next with a single regular-expression search for a
newline followed by one of those characters. The undecided tail is at most one such line
(:data:`~gent_markdown.lines.MAX_LINE_LENGTH` characters). Total work is linear.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from gent_core.errors import GentError
from gent_core.formats import IncrementalParser
from gent_core.sections import ParseResult, SectionEvent, TextDelta
from gent_core.textscan import EMPTY_ATTRIBUTES, SectionCollector
from gent_markdown.lines import (
    MAX_LINE_LENGTH,
    fence_close,
    fence_open,
    header_name,
    unwrap_verbatim,
)

__all__ = ["MarkdownScanner"]

_CANDIDATE = re.compile(r"\n(?=[#`~]| {1,3}(?:[`~]|\Z))")
_CANDIDATE_HERE = re.compile(r"[#`~]| {1,3}(?:[`~]|\Z)")

_TEXT, _MAYBE, _HEADER, _OPEN_FENCE, _CLOSE_FENCE = range(5)


class MarkdownScanner(IncrementalParser):
    """Incremental parser of Markdown sections (see :class:`gent_markdown.MarkdownFormat`).

    Args:
        names: Lower-cased section name -> registered name, or ``None`` for a name whose
            header only ends the open section (the observation).
        level: The number of ``#`` of a section header.
        no_sections: Builds the error raised by :meth:`result` when nothing was found.
    """

    def __init__(
        self,
        names: Mapping[str, str | None],
        *,
        level: int,
        no_sections: Callable[[], GentError],
        reread: bool = False,
        collector: SectionCollector | None = None,
        base: int = 0,
    ) -> None:
        self._names = dict(names)
        self._keys = tuple(self._names)
        self._hashes = "#" * level
        self._level = level
        self._no_sections = no_sections
        self._reread = reread
        self._collector = collector or SectionCollector(unwrap_verbatim)
        self._fence: tuple[str, int] | None = None
        self._line_start = True  # the tail (or the next chunk) starts a line
        self._tail = ""
        self._base = base
        # the open section's text from the first header line inside an open code fence on is
        # held back by the collector until the fence closes (then it is the section's text)
        # or the output ends (then the section ended at that header and the held text is
        # read again)
        self._closed = False
        # fast path: a chunk without "\n" in the middle of a line is plain text; it is appended
        # to the collector's sink and its length added to _base lazily (see _sync)
        self._fast = False
        self._sink = self._collector.sink()
        self._append = self._sink.append
        self._mark = 0
        self._section: str | None = None
        # the last verdict's details
        self._name: str | None = None
        self._attributes: Mapping[str, str] = EMPTY_ATTRIBUTES
        self._opened: tuple[str, int] | None = None

    # ------------------------------------------------------------------ public API

    def feed(self, chunk: str) -> list[SectionEvent]:
        """Consume ``chunk``; return the events it made certain.

        Raises:
            ValueError: When called after :meth:`close`.
        """
        if self._fast and "\n" not in chunk and not self._collector.holding:
            if not chunk:
                return []
            self._append(chunk)
            return [TextDelta(self._section, chunk)]
        if self._closed:
            raise ValueError("feed() called after close()")
        if not chunk:
            return []
        buf = self._tail + chunk if self._tail else chunk
        if not self._collector.holding and (
            not self._line_start or _CANDIDATE_HERE.match(buf) is None
        ):
            match = _CANDIDATE.search(buf)
            if match is None:  # no line of the text starts like a delimiter: plain text
                self._tail = ""
                self._append(buf)
                self._line_start = buf[-1] == "\n"
                self._fast = not self._line_start
                return [TextDelta(self._section, buf)]
            rest = buf[match.start() + 1 :]
            if not rest.strip(" "):  # only a last line of 1-3 spaces is undecided
                return self._plain(buf[: match.start() + 1], rest)
        self._sync()
        events = self._scan(buf, final=False)
        self._fast = not self._tail and not self._line_start and not self._collector.holding
        self._sink = self._collector.sink()
        self._append = self._sink.append
        self._mark = len(self._sink)
        self._section = self._collector.current
        return events

    def _plain(self, text: str, tail: str) -> list[SectionEvent]:
        """Take ``text`` as plain text of the current state and keep ``tail`` undecided."""
        self._tail = tail
        self._append(text)
        self._line_start = bool(tail) or text[-1] == "\n"
        self._fast = not self._line_start
        return [TextDelta(self._section, text)]

    def _sync(self) -> None:
        """Add the length of the text taken by the fast paths since the last scan to _base."""
        sink = self._sink
        if len(sink) > self._mark:
            self._base += sum(map(len, sink[self._mark :]))  # a slice indexes directly
            self._mark = len(sink)

    def close(self) -> list[SectionEvent]:
        """Finish: decide the pending line and end the open section.

        A section whose code fence was never closed ends at the first header line inside
        that fence, and the text from there is read again (once: by the plain rules, and a
        section it leaves open ends with the output, complete). Otherwise the last section is
        complete unless the output ends inside an open code fence.
        """
        if self._closed:
            return []
        self._sync()
        events = self._scan(self._tail, final=True) if self._tail else []
        self._closed = True
        self._fast = False
        if self._collector.holding:
            events = self._collector.read_held_again(events, self._rescan)
        elif self._collector.current is not None:
            self._collector.close(events, self._base, complete=self._fence is None or self._reread)
        return events

    def _rescan(self, at: int) -> MarkdownScanner:
        """The scanner that reads the held text again from offset ``at``, by the plain rules
        (see :meth:`~gent_core.textscan.SectionCollector.read_held_again`).
        """
        return MarkdownScanner(
            self._names,
            level=self._level,
            no_sections=self._no_sections,
            reread=True,
            collector=self._collector,
            base=at,
        )

    def result(self) -> ParseResult:
        """Return what was found so far (after :meth:`close`: the full parse).

        Raises:
            NoSectionsFoundError: When no recognised section was found.
        """
        self._sync()
        found = self._collector.result(self._base)
        if not found.sections:
            raise self._no_sections()
        return found

    # ------------------------------------------------------------------ scanning

    def _scan(self, buf: str, final: bool) -> list[SectionEvent]:
        events: list[SectionEvent] = []
        collector = self._collector
        n = len(buf)
        pos = emit = 0
        keep = n
        at_line = self._line_start
        while pos < n:
            if at_line and _CANDIDATE_HERE.match(buf, pos):
                start = pos
            else:
                match = _CANDIDATE.search(buf, pos)
                if match is None:
                    break
                start = match.start() + 1
            end = buf.find("\n", start)
            line = buf[start : n if end < 0 else end]
            if len(line) > MAX_LINE_LENGTH:
                verdict = _TEXT
            else:
                verdict = self._verdict(line, end >= 0 or final)
            if verdict == _MAYBE:
                keep = start
                break
            if verdict == _HEADER and self._fence is not None:  # inside a fence: hold
                collector.text(events, buf[emit:start])
                collector.hold(self._base + start)
                emit = start
            elif verdict == _HEADER:
                collector.text(events, buf[emit:start])
                if collector.current is not None:
                    collector.close(events, self._base + start, complete=True)
                if self._name is None:  # a header that only ends the open section
                    emit = start
                else:
                    collector.open(events, self._name, self._attributes, self._base + start)
                    emit = n if end < 0 else end + 1
            elif verdict == _OPEN_FENCE:
                self._fence = self._opened
            elif verdict == _CLOSE_FENCE:
                self._fence = None
                if collector.holding:
                    after = n if end < 0 else end + 1
                    collector.text(events, buf[emit:after], release=True)
                    emit = after
            if end < 0:
                pos = n
                at_line = False
            else:
                pos = end + 1
                at_line = True
        if keep < n:
            self._line_start = True
        elif n:
            self._line_start = buf[n - 1] == "\n"
        keep = max(keep, emit)
        self._collector.text(events, buf[emit:keep])
        self._tail = buf[keep:]
        self._base += keep
        return events

    def _verdict(self, line: str, complete: bool) -> int:
        """Classify a line that starts like a delimiter (``complete``: its end is known)."""
        if not complete and line.endswith("\r"):
            line = line[:-1]  # a "\r" that may end the line: decide without it
        fence = self._fence
        if fence is not None:
            verdict = self._close_verdict(line, complete, fence)
            if verdict == _TEXT and line.startswith("#") and self._watching():
                return self._header_verdict(line, complete)
            return verdict
        if line.startswith("#"):
            return self._header_verdict(line, complete)
        return self._open_verdict(line, complete)

    def _watching(self) -> bool:
        """Whether a header line inside the open fence may end the open section (when the
        fence is never closed): in the first reading, while nothing is held yet.
        """
        return (
            not self._reread and not self._collector.holding and self._collector.current is not None
        )

    def _header_verdict(self, line: str, complete: bool) -> int:
        level = self._level
        if len(line) <= level:
            return _MAYBE if not complete and line == self._hashes[: len(line)] else _TEXT
        if not line.startswith(self._hashes) or line[level] not in " \t":
            return _TEXT
        rest = line[level + 1 :]
        if complete:
            found, self._name, self._attributes = header_name(rest, self._names)
            return _HEADER if found else _TEXT
        typed = rest.lstrip(" \t")
        if not typed or not typed.isascii():
            return _MAYBE
        typed = typed.lower()
        for key in self._keys:
            if key.startswith(typed) or typed.startswith(key):
                return _MAYBE
        return _TEXT

    def _open_verdict(self, line: str, complete: bool) -> int:
        if complete:
            opened = fence_open(line)
            if opened is None:
                return _TEXT
            self._opened = opened[0], opened[1]
            return _OPEN_FENCE
        indent = len(line) - len(line.lstrip(" "))
        if indent > 3:
            return _TEXT
        if indent == len(line):
            return _MAYBE
        char = line[indent]
        if char not in "`~":
            return _TEXT
        after = line[indent:].lstrip(char)
        if not after:
            return _MAYBE
        if len(line) - indent - len(after) < 3 or (char == "`" and "`" in after):
            return _TEXT
        return _MAYBE

    @staticmethod
    def _close_verdict(line: str, complete: bool, fence: tuple[str, int]) -> int:
        char, size = fence
        if complete:
            return _CLOSE_FENCE if fence_close(line, char, size) else _TEXT
        indent = len(line) - len(line.lstrip(" "))
        if indent > 3:
            return _TEXT
        after = line[indent:].lstrip(char)
        if len(after) == len(line) - indent:  # no fence character yet
            return _MAYBE if not after else _TEXT
        if not after:
            return _MAYBE
        if len(line) - indent - len(after) < size or after.strip(" \t"):
            return _TEXT
        return _MAYBE
