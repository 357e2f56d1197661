"""Building blocks shared by text formats and call readers: section names, attributes, result
collection, and quoting model text in messages.

Formats (``gent-xml``, ``gent-markdown``) scan model output with their own state machine; this
module holds what they have in common so that plugins never import each other:

* :func:`parse_attributes` / :func:`format_attributes` read and write ``key="value"`` lists
  (double quotes, single quotes or unquoted values; entities decoded);
  :func:`attribute_pairs` reads them as written, a key repeated included;
* :class:`SectionCollector` turns a scanner's findings (text, section opened, section closed)
  into streaming events and, at the end, a :class:`~gent_core.sections.ParseResult`; it also
  holds back the text a tolerant scanner is not sure of yet (another section's delimiter
  inside the open section) and reads it again once at the end
  (:meth:`SectionCollector.hold`, :meth:`SectionCollector.read_held_again`);
* :func:`quote_start`, :func:`quote_end` and :func:`snippet_at` quote a piece of model text
  on one line, and :func:`line_column` locates an offset, for the messages of every call
  reader (and of the command line).

Nothing here uses a regular expression that can backtrack more than a bounded amount.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from gent_core.sections import (
    ParsedSection,
    ParseResult,
    SectionEnded,
    SectionEvent,
    SectionStarted,
    TextDelta,
)

if TYPE_CHECKING:
    from gent_core.formats import IncrementalParser

__all__ = [
    "EMPTY_ATTRIBUTES",
    "SectionCollector",
    "attribute_pairs",
    "format_attributes",
    "line_column",
    "parse_attributes",
    "quote_end",
    "quote_start",
    "snippet_at",
]

EMPTY_ATTRIBUTES: Mapping[str, str] = MappingProxyType({})
"""The read-only empty attribute mapping."""

_ATTRIBUTE = re.compile(
    r"""[ \t\r\n]*([A-Za-z_:][-\w:.]*)[ \t\r\n]*=[ \t\r\n]*"""
    r"""(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))"""
)
_ATTRIBUTE_NAME = re.compile(r"[A-Za-z_:][-\w:.]*")
_ATTRIBUTE_ESCAPES = str.maketrans(
    {"&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;", "\n": "&#10;", "\r": "&#13;"}
)


def parse_attributes(text: str) -> dict[str, str] | None:
    """Read an attribute list such as ``name="x" mode='fast' retries=3``.

    Values may be double-quoted, single-quoted or unquoted (no spaces, quotes, ``=``, ``<``,
    ``>`` or backticks). Character references (``&amp;``, ``&quot;``, ``&#10;``...) in values
    are decoded. A later duplicate key replaces an earlier one (:func:`attribute_pairs` keeps
    both, for readers that refuse a repeated key).

    Args:
        text: The text between the name and the end of a tag or header attribute block.

    Returns:
        The attributes in order, or ``None`` when ``text`` is not an attribute list.
    """
    pairs = attribute_pairs(text)
    return dict(pairs) if pairs is not None else None


def attribute_pairs(text: str) -> list[tuple[str, str]] | None:
    """Read an attribute list like :func:`parse_attributes`, as ``(key, value)`` pairs in the
    order written, a repeated key appearing once per time it is written.

    Returns:
        The pairs, or ``None`` when ``text`` is not an attribute list.
    """
    attributes: list[tuple[str, str]] = []
    pos = 0
    end = len(text)
    while True:
        match = _ATTRIBUTE.match(text, pos)
        if match is None:
            break
        key, double, single, bare = match.groups()
        value = double if double is not None else single if single is not None else bare
        if "&" in value:
            import html  # only needed for values with character references

            value = html.unescape(value)
        attributes.append((key, value))
        pos = match.end()
    if text[pos:end].strip():
        return None
    return attributes


def format_attributes(attributes: Mapping[str, str] | None) -> str:
    """Write ``attributes`` as ``key="value"`` pairs separated by spaces.

    ``&``, ``"``, ``<``, ``>`` and line breaks in values are written as character references,
    so :func:`parse_attributes` gives the same mapping back.

    Raises:
        ValueError: When a key is not an attribute name (letters, digits, ``_ : . -``, not
            starting with a digit, ``.`` or ``-``).
    """
    if not attributes:
        return ""
    parts = []
    for key, value in attributes.items():
        if not _ATTRIBUTE_NAME.fullmatch(key):
            raise ValueError(f"{key!r} is not a valid attribute name")
        parts.append(f'{key}="{str(value).translate(_ATTRIBUTE_ESCAPES)}"')
    return " ".join(parts)


def _as_is(text: str) -> str:
    return text


class SectionCollector:
    """Collects what a scanner finds and produces events and the final result.

    A scanner reports text (inside the open section or outside every section), section
    openings and closings, with absolute offsets. The collector keeps the raw text of the open
    section, the outside segments and the finished sections.

    Args:
        unwrap: Undoes the format's escaping in a section's raw text (CDATA...), without
            trimming. The section's :attr:`~gent_core.sections.ParsedSection.raw` is the
            result and its ``content`` the result trimmed. Defaults to no unescaping.
    """

    __slots__ = (
        "_attributes",
        "_held",
        "_held_at",
        "_outside",
        "_outside_pieces",
        "_pieces",
        "_start",
        "_unwrap",
        "current",
        "sections",
    )

    def __init__(self, unwrap: Callable[[str], str] | None = None) -> None:
        self._unwrap = unwrap or _as_is
        self.sections: list[ParsedSection] = []
        self.current: str | None = None
        self._attributes: Mapping[str, str] = EMPTY_ATTRIBUTES
        self._start = 0
        self._pieces: list[str] = []
        self._outside_pieces: list[str] = []
        self._outside: list[str] = []
        self._held: list[str] | None = None
        self._held_at = 0

    @property
    def holding(self) -> bool:
        """Whether text is held back (see :meth:`hold`)."""
        return self._held is not None

    def hold(self, at: int) -> None:
        """Hold back the open section's text from offset ``at`` on: a tolerant scanner saw
        another section's delimiter there, inside the open section, and cannot tell yet
        whether it ends the section (the section's own delimiter still to come) or not.

        Until :meth:`text` is called with ``release`` (it was the section's text after all)
        or :meth:`read_held_again` (the output ended first), :meth:`text` keeps the text it
        is given without an event. The scanner keeps off :meth:`sink` and :meth:`delta`
        meanwhile.
        """
        self._held, self._held_at = [], at

    def read_held_again(
        self, events: list[SectionEvent], rescan: Callable[[int], IncrementalParser]
    ) -> list[SectionEvent]:
        """End the open section where the held text starts, and read that text again, once,
        as the rest of the output: ``rescan(at)`` gives a scanner of the same format that
        reports to this collector, starting at offset ``at``, which must not hold again.
        Returns ``events`` followed by that reading's events.
        """
        assert self._held is not None  # only called with held text
        held, at = "".join(self._held), self._held_at
        self._held = None
        if self.current is not None:
            self.close(events, at, complete=True)
        rest = rescan(at)
        return events + rest.feed(held) + rest.close()

    def text(self, events: list[SectionEvent], text: str, *, release: bool = False) -> None:
        """Record ``text`` in the open section (or outside) and append its event; while text
        is held (:meth:`hold`), keep it held instead, unless ``release``: then the held text
        and ``text`` are the open section's after all.
        """
        held = self._held
        if held is not None:
            if not release:
                held.append(text)
                return
            self._held = None
            text = "".join(held) + text
        if text:
            if self.current is None:
                self._outside_pieces.append(text)
            else:
                self._pieces.append(text)
            events.append(TextDelta(self.current, text))

    def sink(self) -> list[str]:
        """The list that text goes to right now (the open section's, or the outside one).

        A scanner may append plain text to it directly (with its own :class:`TextDelta`)
        until the next :meth:`open` or :meth:`close`.
        """
        return self._outside_pieces if self.current is None else self._pieces

    def delta(self, text: str) -> TextDelta:
        """Record non-empty ``text`` and return its event (a scanner's fast path)."""
        (self._outside_pieces if self.current is None else self._pieces).append(text)
        return TextDelta(self.current, text)

    def open(
        self,
        events: list[SectionEvent],
        name: str,
        attributes: Mapping[str, str],
        start: int,
    ) -> None:
        """Open section ``name`` whose delimiter starts at offset ``start``.

        The attributes are copied into a read-only mapping.
        """
        self._end_outside_segment()
        self.current = name
        self._attributes = MappingProxyType(dict(attributes)) if attributes else EMPTY_ATTRIBUTES
        self._start = start
        self._pieces = []
        events.append(SectionStarted(name, self._attributes))

    def close(self, events: list[SectionEvent], end: int, *, complete: bool) -> None:
        """Close the open section at offset ``end`` (``complete=False``: it was cut off)."""
        section = self._finish(end, complete)
        self.sections.append(section)
        self.current = None
        self._pieces = []
        events.append(SectionEnded(section))

    def result(self, end: int) -> ParseResult:
        """Return the sections and outside text collected so far.

        Args:
            end: Offset just past the text consumed so far; a section still open ends there
                and is reported as cut off (``complete=False``).
        """
        sections = list(self.sections)
        if self.current is not None:
            sections.append(self._finish(end, False))
        segments = list(self._outside)
        pending = "".join(self._outside_pieces).strip()
        if pending:
            segments.append(pending)
        return ParseResult(tuple(sections), "\n".join(segments))

    def _finish(self, end: int, complete: bool) -> ParsedSection:
        raw = self._unwrap("".join(self._pieces))
        return ParsedSection(
            self.current or "",
            raw.strip(),
            self._attributes,
            self._start,
            end,
            complete,
            raw,
        )

    def _end_outside_segment(self) -> None:
        if self._outside_pieces:
            segment = "".join(self._outside_pieces).strip()
            if segment:
                self._outside.append(segment)
            self._outside_pieces = []


# ---------------------------------------------------------------------- quoting model text

_QUOTE_CHARS = 60


def _one_line(text: str) -> str:
    return " ".join(text.split())


def quote_start(text: str, limit: int = _QUOTE_CHARS) -> str:
    """Return the start of ``text`` on one line, cut to ``limit`` characters with ``...``."""
    flat = _one_line(text)
    return flat if len(flat) <= limit else flat[:limit] + "..."


def quote_end(text: str, limit: int = _QUOTE_CHARS // 2) -> str:
    """Return the end of ``text`` on one line, cut to ``limit`` characters after ``...``."""
    flat = _one_line(text)
    return flat if len(flat) <= limit else "..." + flat[-limit:]


def snippet_at(text: str, offset: int, radius: int = 20) -> str:
    """Return the text around ``offset`` on one line (for "near `...`" messages)."""
    start = max(0, offset - radius)
    end = min(len(text), offset + radius)
    prefix = "..." if start > 0 else ""
    suffix = "..." if end < len(text) else ""
    return prefix + _one_line(text[start:end]) + suffix


def line_column(text: str, offset: int) -> tuple[int, int]:
    """Return the 1-based line and column of ``offset`` in ``text``."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column
