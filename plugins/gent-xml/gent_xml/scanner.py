"""The XML section scanner: one state machine behind both one-shot and streaming parsing.

The scanner reads text left to right and never looks back further than its *tail*: the text
from a ``<`` whose meaning is not decided yet (a tag split across chunks), at most
:data:`MAX_TAG_LENGTH` characters. Total work is linear in the length of the output.

States: *outside* every section, at the *start* of a section (only whitespace seen, so a
``<![CDATA[`` block may begin), *inside* a section, inside a leading *CDATA* block, and
right after one (*join*: another block may follow at once). See :mod:`gent_xml.format` for the
rules this implements.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping

from gent_core.errors import AmbiguousSectionError, GentError, Location
from gent_core.formats import IncrementalParser
from gent_core.sections import ParseResult, SectionEvent, TextDelta
from gent_core.textscan import EMPTY_ATTRIBUTES, SectionCollector, parse_attributes

__all__ = ["CDATA_CLOSE", "CDATA_OPEN", "MAX_TAG_LENGTH", "XMLScanner", "unwrap_cdata"]

MAX_TAG_LENGTH = 1024
"""Longest tag, ``<`` to ``>`` included; a longer would-be tag is content."""

CDATA_OPEN = "<![CDATA["
CDATA_CLOSE = "]]>"

_OUTSIDE, _START, _INSIDE, _CDATA, _JOIN = range(5)
_NO, _MAYBE, _OPEN, _SELF_CLOSING, _CLOSE = range(5)

_NAME_RUN = re.compile(r"""[^\s/<>="'`]*""")
_SPACES = re.compile(r"\s*")

_Tag = tuple[int, int, str, Mapping[str, str]]


def _skip_spaces(buf: str, pos: int, stop: int) -> int:
    """Return the index of the first non-whitespace character in ``buf[pos:stop]`` (or
    ``stop``).
    """
    match = _SPACES.match(buf, pos, stop)
    return match.end() if match is not None else pos


_NOT_A_TAG: _Tag = (_NO, 0, "", EMPTY_ATTRIBUTES)
_UNDECIDED: _Tag = (_MAYBE, 0, "", EMPTY_ATTRIBUTES)


def unwrap_cdata(raw: str) -> str:
    """Return a section's text from its raw text, leading CDATA blocks undone, *not* trimmed.

    When the raw text (ignoring surrounding whitespace) is one or more adjacent
    ``<![CDATA[...]]>`` blocks, the text is their inner text joined; otherwise it is the raw
    text as it is (CDATA markers kept as written).
    """
    text = raw.lstrip()
    if not text.startswith(CDATA_OPEN):
        return raw
    parts: list[str] = []
    pos = 0
    while text.startswith(CDATA_OPEN, pos):
        end = text.find(CDATA_CLOSE, pos + len(CDATA_OPEN))
        if end < 0:
            return raw
        parts.append(text[pos + len(CDATA_OPEN) : end])
        pos = end + len(CDATA_CLOSE)
    rest = text[pos:]
    if rest and not rest.isspace():
        return raw
    return "".join(parts)


@functools.lru_cache(maxsize=128)
def _name_info(names: tuple[tuple[str, str], ...]) -> tuple[int, frozenset[str]]:
    """The longest name and every prefix of the lower-cased names, computed once per set of
    sections (an agent parses every output with the same set).
    """
    longest = max((max(len(key), len(name)) for key, name in names), default=0)
    prefixes = frozenset(key[:i] for key, _ in names for i in range(len(key) + 1))
    return longest, prefixes


class XMLScanner(IncrementalParser):
    """Incremental parser of XML-style sections (see :class:`gent_xml.XMLFormat`).

    Args:
        names: Lower-cased section name -> registered name.
        strict: Raise :class:`AmbiguousSectionError` on recognised tags inside a section and
            on closing tags that close nothing.
        no_sections: Builds the error raised by :meth:`result` when nothing was found.
    """

    def __init__(
        self,
        names: Mapping[str, str],
        *,
        strict: bool,
        no_sections: Callable[[], GentError],
        reread: bool = False,
        collector: SectionCollector | None = None,
        base: int = 0,
    ) -> None:
        self._names = dict(names)
        self._max_name, self._prefixes = _name_info(tuple(self._names.items()))
        self._strict = strict
        self._reread = reread
        self._tolerant = not reread and not strict
        self._no_sections = no_sections
        self._collector = collector or SectionCollector(unwrap_cdata)
        self._mode = _OUTSIDE
        self._close_name = ""  # the open section's name, lower-cased
        self._close_size = 0  # len("</" + registered name)
        self._tail = ""
        self._base = base  # offset of the tail's first character in the whole output
        # the open section's text from the first opening tag of another section on is held
        # back by the collector until the section's closing tag (then it is the section's
        # text) or the end of the output (then the section ended at that tag and the held
        # text is read again)
        self._closed = False
        self._error: AmbiguousSectionError | None = None
        # fast path: a chunk without "<" is plain text of the current state; it is appended to
        # the collector's sink and its length added to _base lazily (see _sync)
        self._fast = True
        self._sink = self._collector.sink()
        self._append = self._sink.append
        self._mark = 0
        self._section: str | None = None

    # ------------------------------------------------------------------ public API

    def feed(self, chunk: str) -> list[SectionEvent]:
        """Consume ``chunk``; return the events it made certain.

        Raises:
            AmbiguousSectionError: In strict mode, when the output holds an ambiguous tag.
            ValueError: When called after :meth:`close`.
        """
        if self._fast and "<" not in chunk:
            if not chunk:
                return []
            self._append(chunk)
            return [TextDelta(self._section, chunk)]
        self._sync()
        if self._closed:
            raise ValueError("feed() called after close()")
        if self._error is not None:
            raise self._error
        if not chunk:
            return []
        return self._run(self._tail + chunk if self._tail else chunk, final=False)

    def close(self) -> list[SectionEvent]:
        """Finish: decide the pending tail and end the open section.

        A section never closed ends where the first opening tag of another section inside
        it starts, and the text from there is read again (once: by the plain rules, and a
        section it leaves open ends with the output, complete); otherwise a section still open
        is cut off (``complete=False``).

        Raises:
            AmbiguousSectionError: In strict mode, when the pending tail is ambiguous.
        """
        if self._closed:
            return []
        if self._error is not None:
            raise self._error
        self._sync()
        events = self._run(self._tail, final=True) if self._tail else []
        self._closed = True
        self._fast = False
        if self._collector.holding:
            events = self._collector.read_held_again(events, self._rescan)
        elif self._collector.current is not None:
            self._collector.close(events, self._base, complete=self._reread)
        return events

    def _rescan(self, at: int) -> XMLScanner:
        """The scanner that reads the held text again from offset ``at``, by the plain rules
        (see :meth:`~gent_core.textscan.SectionCollector.read_held_again`).
        """
        return XMLScanner(
            self._names,
            strict=False,
            no_sections=self._no_sections,
            reread=True,
            collector=self._collector,
            base=at,
        )

    def result(self) -> ParseResult:
        """Return what was found so far (after :meth:`close`: the full parse).

        Raises:
            NoSectionsFoundError: When no recognised section was found.
            AmbiguousSectionError: In strict mode, when the output held an ambiguous tag.
        """
        if self._error is not None:
            raise self._error
        self._sync()
        found = self._collector.result(self._base)
        if not found.sections:
            raise self._no_sections()
        return found

    # ------------------------------------------------------------------ scanning

    def _run(self, buf: str, *, final: bool) -> list[SectionEvent]:
        try:
            events = self._scan(buf, final)
        except AmbiguousSectionError as error:
            self._error = error
            self._fast = False
            raise
        mode = self._mode
        self._fast = not self._tail and (
            mode == _OUTSIDE
            or (mode == _INSIDE and not self._strict and not self._collector.holding)
        )
        self._sink = self._collector.sink()
        self._append = self._sink.append
        self._mark = len(self._sink)
        self._section = self._collector.current
        return events

    def _sync(self) -> None:
        """Add the length of the text taken by the fast path since the last scan to _base."""
        sink = self._sink
        if len(sink) > self._mark:
            self._base += sum(map(len, sink[self._mark :]))  # a slice indexes directly
            self._mark = len(sink)

    def _scan(self, buf: str, final: bool) -> list[SectionEvent]:
        """Scan ``buf`` once from the start: the events found, and the undecided tail kept
        for the next chunk (all of it decided when ``final``).

        Long because it is the scanner's single pass, one loop with a branch per mode: the
        mode, the position, what was emitted and what is kept live in locals that every
        branch reads and changes, so methods per mode would hand four values in and out at
        every step of the hot path of each XML output.
        """
        events: list[SectionEvent] = []
        collector = self._collector
        strict = self._strict
        n = len(buf)
        pos = emit = 0
        keep = n  # start of the undecided tail
        mode = self._mode
        while pos < n:
            if mode == _OUTSIDE:
                p = buf.find("<", pos)
                if p < 0:
                    break
                if not strict and p + 1 < n and buf[p + 1] == "/":
                    pos = p + 2
                    continue
                kind, end, name, attributes = self._tag(buf, p, final)
                if kind == _MAYBE:
                    keep = p
                    break
                if kind == _NO or (kind == _CLOSE and not strict):
                    pos = p + 1
                    continue
                if kind == _CLOSE:
                    raise self._ambiguous(buf, p, end, None)
                collector.text(events, buf[emit:p])
                collector.open(events, name, attributes, self._base + p)
                emit = pos = end
                if kind == _SELF_CLOSING:
                    collector.close(events, self._base + end, complete=True)
                else:
                    mode = _START
                    self._close_name = name.lower()
                    self._close_size = 2 + len(name)
            elif mode in (_START, _JOIN):
                k = _skip_spaces(buf, pos, n) if mode == _START else pos
                if k >= n:
                    break
                if buf.startswith(CDATA_OPEN, k):
                    mode = _CDATA
                    pos = k + len(CDATA_OPEN)
                elif not final and n - k < len(CDATA_OPEN) and CDATA_OPEN.startswith(buf[k:]):
                    keep = k
                    break
                else:
                    mode = _INSIDE
                    pos = k
            elif mode == _CDATA:
                p = buf.find(CDATA_CLOSE, pos)
                if p < 0:
                    if not final:  # keep a "]" or "]]" that may start the end marker
                        pending = 2 if buf.endswith("]]") else 1 if buf.endswith("]") else 0
                        keep = max(pos, n - pending)
                    break
                mode = _JOIN
                pos = p + len(CDATA_CLOSE)
            elif strict:
                p = buf.find("<", pos)
                if p < 0:
                    break
                kind, end, name, _ = self._tag(buf, p, final)
                if kind == _MAYBE:
                    keep = p
                    break
                if kind == _NO:
                    pos = p + 1
                    continue
                if kind != _CLOSE or name != collector.current:
                    raise self._ambiguous(buf, p, end, collector.current)
                collector.text(events, buf[emit:p])
                collector.close(events, self._base + end, complete=True)
                emit = pos = end
                mode = _OUTSIDE
            else:
                watch = self._tolerant and not self._collector.holding
                p = buf.find("<" if watch else "</", pos)
                if p < 0:
                    if not final and buf.endswith("<"):
                        keep = max(pos, n - 1)
                    break
                if watch and not buf.startswith("</", p):
                    kind, end, name, _ = self._tag(buf, p, final)
                    if kind == _MAYBE:
                        keep = p
                        break
                    if kind in (_OPEN, _SELF_CLOSING) and name.lower() != self._close_name:
                        collector.text(events, buf[emit:p])
                        collector.hold(self._base + p)
                        emit = p
                    pos = p + 1
                    continue
                end = self._closing(buf, p, final)
                if end == -1:
                    pos = p + 2
                    continue
                if end == -2:
                    keep = p
                    break
                self._collector.text(events, buf[emit:p], release=True)
                collector.close(events, self._base + end, complete=True)
                emit = pos = end
                mode = _OUTSIDE
        self._mode = mode
        if keep < emit:
            keep = emit
        self._collector.text(events, buf[emit:keep])
        self._tail = buf[keep:]
        self._base += keep
        return events

    def _closing(self, buf: str, p: int, final: bool) -> int:
        """At ``buf[p:]`` == ``"</..."``: the end of the open section's closing tag, or
        -1 (not it) or -2 (undecided until more text arrives).
        """
        name = self._close_name
        n = len(buf)
        size = self._close_size
        if n - p < size:
            if final:
                return -1
            start = buf[p + 2 :]
            if not start.isascii() or not name.isascii():
                return -2
            return -2 if name.startswith(start.lower()) else -1
        if buf[p + 2 : p + size].lower() != name:
            return -1
        stop = min(n, p + MAX_TAG_LENGTH)
        k = _skip_spaces(buf, p + size, stop)
        if k < stop:
            return k + 1 if buf[k] == ">" else -1
        return -2 if not final and stop == n and n < p + MAX_TAG_LENGTH else -1

    def _tag(self, buf: str, p: int, final: bool) -> _Tag:
        """Classify the would-be tag at ``buf[p] == "<"`` (recognised names only)."""
        n = len(buf)
        i = p + 1
        closing = i < n and buf[i] == "/"
        if closing:
            i += 1
        match = _NAME_RUN.match(buf, i, i + self._max_name + 1)
        j = match.end() if match is not None else i
        if j >= n:  # the name may go on in the next chunk
            if final:
                return _NOT_A_TAG
            start = buf[i:j]
            return (
                _UNDECIDED if not start.isascii() or start.lower() in self._prefixes else _NOT_A_TAG
            )
        name = self._names.get(buf[i:j].lower())
        if name is None:
            return _NOT_A_TAG
        bound = p + MAX_TAG_LENGTH
        stop = min(n, bound)
        if closing:
            k = _skip_spaces(buf, j, stop)
            if k < stop:
                return (_CLOSE, k + 1, name, EMPTY_ATTRIBUTES) if buf[k] == ">" else _NOT_A_TAG
            return _UNDECIDED if not final and stop == n < bound else _NOT_A_TAG
        lt = buf.find("<", j, stop)
        gt = buf.find(">", j, lt if lt >= 0 else stop)
        if gt < 0:
            return _UNDECIDED if lt < 0 and not final and stop == n < bound else _NOT_A_TAG
        if gt == j:
            return (_OPEN, gt + 1, name, EMPTY_ATTRIBUTES)
        inner = buf[j:gt].rstrip()
        kind = _OPEN
        if inner.endswith("/"):
            kind = _SELF_CLOSING
            inner = inner[:-1]
        if not inner:
            return (kind, gt + 1, name, EMPTY_ATTRIBUTES)
        if not inner[0].isspace():
            return _NOT_A_TAG
        attributes = parse_attributes(inner)
        if attributes is None:
            return _NOT_A_TAG
        return (kind, gt + 1, name, attributes or EMPTY_ATTRIBUTES)

    def _ambiguous(self, buf: str, p: int, end: int, section: str | None) -> AmbiguousSectionError:
        tag = buf[p:end]
        offset = self._base + p
        if section is None:
            return AmbiguousSectionError(
                f"strict parsing: closing tag {tag!r} at offset {offset} closes no open section",
                location=Location(offset=offset),
                model_message=f"Your output has the closing tag {tag} without its opening tag. "
                "Open every section with its tag and close it with the matching closing tag.",
            )
        return AmbiguousSectionError(
            f"strict parsing: section tag {tag!r} at offset {offset} inside the open "
            f"section {section!r}",
            location=Location(section=section, offset=offset),
            model_message=f"Your <{section}> section contains the tag {tag} before its closing "
            f"tag </{section}>. Close each section before you start the next one, and do not "
            "write section tags inside a section.",
        )
