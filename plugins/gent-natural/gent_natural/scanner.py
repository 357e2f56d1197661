"""A streaming scanner for ``<tool_call>`` and ``<tool_response>`` elements in text.

:class:`TagScanner` takes text chunk by chunk and reports prose and complete elements:

* text that cannot start a tag is released at once (a ``<`` followed by anything but the
  start of ``tool_call`` or ``tool_response`` is text as soon as that character arrives);
* a possible tag start at the end of a chunk (``<``, ``<tool_``, ``<tool_call name="Get``)
  is held back only until it is decided, and never beyond :data:`MAX_TAG_LENGTH` characters;
* an element's body is collected until its closing tag (``</tool_call>``, any case, spaces
  allowed before ``>``); ``<![CDATA[ ... ]]>`` in a body is literal text;
* at the end of the stream, a dangling partial tag is released as text, and an element never
  closed is reported as a :class:`BrokenElement` with its text.

Each character is examined a bounded number of times (a held tag start is never re-read), so
the work is linear in the length of the stream however it is chunked. An opening tag is
``<tool_call`` or ``<tool_response`` (any case) followed by attributes
(:func:`gent_core.textscan.parse_attributes`) and ``>``; the first ``>`` ends it and a ``<``
before it makes it text. An attribute written twice is reported (:attr:`Element.repeated`),
so a reader can refuse it instead of taking one of the values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import cast

from gent_core.textscan import attribute_pairs
from gent_natural.tags import (
    CALL_TAG,
    CDATA_CLOSE,
    CDATA_OPEN,
    MAX_TAG_LENGTH,
    RESPONSE_TAG,
    TagName,
)

__all__ = ["BrokenElement", "Element", "ProseText", "ScanEvent", "TagScanner", "scan_text"]


@dataclass(frozen=True)
class ProseText:
    """Text outside every element, released as soon as it is certain."""

    text: str


@dataclass(frozen=True)
class Element:
    """A complete ``tool_call`` or ``tool_response`` element.

    Attributes:
        tag: ``"tool_call"`` or ``"tool_response"``.
        attributes: The opening tag's attributes (``{"name": "get_weather"}``).
        content: The body between the tags, CDATA markers removed (line breaks kept).
        raw: The element exactly as written.
        repeated: The attributes written more than once, with every value in order
            (``attributes`` holds the last one).
    """

    tag: TagName
    attributes: Mapping[str, str]
    content: str
    raw: str
    repeated: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class BrokenElement:
    """An element that cannot be read; its text stays in the conversation as prose.

    Attributes:
        tag: The element's tag (or the section's name, for a format's sections).
        raw: Its text, from the opening tag on.
        problem: What is wrong (``"a <tool_call> was never closed"``).
        truncated: Whether the text ended inside it.
    """

    tag: str
    raw: str
    problem: str
    truncated: bool = False


ScanEvent = ProseText | Element | BrokenElement

_TAGS: tuple[str, ...] = (CALL_TAG, RESPONSE_TAG)
_PREFIXES = frozenset(tag[:length] for tag in _TAGS for length in range(1, len(tag) + 1))
_LOOKAHEAD = max(len(tag) for tag in _TAGS) + 1
_SPACE = frozenset(" \t\r\n")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-:.")

_TEXT, _OPENING, _BODY, _BODY_TAG, _CDATA = range(5)


def _repeated(pairs: list[tuple[str, str]]) -> dict[str, tuple[str, ...]]:
    """The keys written more than once, with their values in order."""
    values: dict[str, list[str]] = {}
    for key, value in pairs:
        values.setdefault(key, []).append(value)
    return {key: tuple(found) for key, found in values.items() if len(found) > 1}


class TagScanner:
    """Finds natural tool-use elements in streamed text (see the module docstring)."""

    def __init__(self) -> None:
        self._mode = _TEXT
        self._events: list[ScanEvent] = []
        self._prose: list[str] = []
        # a tag being read (opening tag in text, or a closing tag / CDATA opener in a body)
        self._tag: list[str] = []
        self._tag_length = 0
        self._name = ""  # lower-cased name read so far; complete when followed by space or >
        self._name_done = False
        # the open element
        self._element: TagName = CALL_TAG
        self._attributes: Mapping[str, str] = {}
        self._repeated: Mapping[str, tuple[str, ...]] = {}
        self._opening = ""
        self._raw: list[str] = []
        self._content: list[str] = []
        self._closing_target = ""
        self._could_close = True
        self._could_cdata = True
        self._cdata_tail = ""

    # ------------------------------------------------------------------ public

    def feed(self, chunk: str) -> list[ScanEvent]:
        """Scan ``chunk`` and return the events it made certain, in order."""
        if self._mode == _TEXT and "<" not in chunk and chunk:  # fast path: plain prose
            return [ProseText(chunk)]
        position = 0
        end = len(chunk)
        while position < end:
            mode = self._mode
            if mode == _TEXT:
                position = self._text(chunk, position)
            elif mode == _OPENING:
                position = self._opening_tag(chunk, position)
            elif mode == _BODY:
                position = self._body(chunk, position)
            elif mode == _BODY_TAG:
                position = self._body_tag(chunk, position)
            else:
                position = self._cdata(chunk, position)
        return self._take()

    def close(self) -> list[ScanEvent]:
        """End the stream: release a partial tag as text and report an unclosed element."""
        if self._mode == _OPENING:
            self._prose.append("".join(self._tag))
        elif self._mode != _TEXT:
            raw = self._opening + "".join(self._raw) + "".join(self._tag) + self._cdata_tail
            self._flush_prose()
            problem = f"a <{self._element}> was never closed"
            self._events.append(BrokenElement(self._element, raw, problem, truncated=True))
        self._mode = _TEXT
        self._tag = []
        return self._take()

    # ------------------------------------------------------------------ text

    def _take(self) -> list[ScanEvent]:
        self._flush_prose()
        events, self._events = self._events, []
        return events

    def _flush_prose(self) -> None:
        if self._prose:
            text = "".join(self._prose)
            self._prose = []
            if text:
                self._events.append(ProseText(text))

    def _text(self, chunk: str, position: int) -> int:
        found = chunk.find("<", position)
        if found < 0:
            self._prose.append(chunk[position:])
            return len(chunk)
        if found > position:
            self._prose.append(chunk[position:found])
        self._start_tag("<")
        self._name, self._name_done = "", False
        self._mode = _OPENING
        return found + 1

    def _start_tag(self, text: str) -> None:
        self._tag = [text]
        self._tag_length = len(text)

    def _not_a_tag(self) -> None:
        """The held tag start is text after all."""
        self._prose.append("".join(self._tag))
        self._tag = []
        self._mode = _TEXT

    def _opening_tag(self, chunk: str, position: int) -> int:
        end = len(chunk)
        if not self._name and position + _LOOKAHEAD <= end:  # fast path: the whole name is here
            ahead = chunk[position : position + _LOOKAHEAD].lower()
            for tag in _TAGS:
                if ahead.startswith(tag) and (ahead[len(tag)] in _SPACE or ahead[len(tag)] == ">"):
                    self._name = tag
                    self._name_done = True
                    self._tag.append(chunk[position : position + len(tag)])
                    self._tag_length += len(tag)
                    position += len(tag)
                    break
        while not self._name_done:
            if position >= end:
                return position
            char = chunk[position]
            if char in _NAME_CHARS:
                name = self._name + char.lower()
                if name not in _PREFIXES:
                    self._not_a_tag()
                    return position
                self._name = name
                self._tag.append(char)
                self._tag_length += 1
                position += 1
                continue
            if self._name in _TAGS and (char in _SPACE or char == ">"):
                self._name_done = True
                break
            self._not_a_tag()
            return position
        close = chunk.find(">", position)
        stop = close if close >= 0 else end
        less = chunk.find("<", position, stop)
        if less >= 0:  # a "<" inside the tag: the held text was prose
            self._tag.append(chunk[position:less])
            self._not_a_tag()
            return less
        self._tag.append(chunk[position : stop + 1 if close >= 0 else stop])
        self._tag_length += (stop + 1 if close >= 0 else stop) - position
        if self._tag_length > MAX_TAG_LENGTH:
            self._not_a_tag()
            return stop + 1 if close >= 0 else stop
        if close < 0:
            return end
        tag = "".join(self._tag)
        pairs = attribute_pairs(tag[1 + len(self._name) : -1])
        if pairs is None:
            self._not_a_tag()
            return close + 1
        self._repeated = _repeated(pairs)
        self._open_element(cast(TagName, self._name), dict(pairs), tag)
        return close + 1

    # ------------------------------------------------------------------ body

    def _open_element(self, tag: TagName, attributes: Mapping[str, str], opening: str) -> None:
        self._flush_prose()
        self._element = tag
        self._attributes = attributes
        self._opening = opening
        self._raw = []
        self._content = []
        self._closing_target = "</" + tag
        self._tag = []
        self._mode = _BODY

    def _body(self, chunk: str, position: int) -> int:
        found = chunk.find("<", position)
        if found < 0:
            piece = chunk[position:]
            self._raw.append(piece)
            self._content.append(piece)
            return len(chunk)
        if found > position:
            piece = chunk[position:found]
            self._raw.append(piece)
            self._content.append(piece)
        target = self._closing_target
        after = found + len(target)
        if (  # fast path: the whole closing tag is here
            after < len(chunk) and chunk[after] == ">" and chunk[found:after].lower() == target
        ):
            self._tag = [chunk[found : after + 1]]
            self._close_element()
            return after + 1
        self._start_tag("<")
        self._name_done = False
        self._could_close = self._could_cdata = True
        self._mode = _BODY_TAG
        return found + 1

    def _body_text_after_all(self) -> None:
        text = "".join(self._tag)
        self._raw.append(text)
        self._content.append(text)
        self._tag = []
        self._mode = _BODY

    def _body_tag(self, chunk: str, position: int) -> int:
        """Read what follows a ``<`` in a body: the closing tag, a CDATA opener, or text."""
        target = self._closing_target
        end = len(chunk)
        while position < end:
            char = chunk[position]
            length = self._tag_length
            if self._name_done:  # after "</tool_call": spaces, then ">"
                if char == ">":
                    self._tag.append(char)
                    self._close_element()
                    return position + 1
                if char not in _SPACE or length >= MAX_TAG_LENGTH:
                    self._body_text_after_all()
                    return position
            elif self._could_close and length < len(target) and char.lower() == target[length]:
                self._could_cdata = False
            elif self._could_cdata and char == CDATA_OPEN[length]:
                self._could_close = False
                if length + 1 == len(CDATA_OPEN):
                    self._raw.append(CDATA_OPEN)
                    self._tag = []
                    self._mode = _CDATA
                    return position + 1
            elif self._could_close and length == len(target) and (char in _SPACE or char == ">"):
                self._name_done = True
                continue
            else:
                self._body_text_after_all()
                return position
            self._tag.append(char)
            self._tag_length += 1
            position += 1
        return position

    def _cdata(self, chunk: str, position: int) -> int:
        tail = self._cdata_tail
        text = tail + chunk[position:] if tail else chunk[position:]
        found = text.find(CDATA_CLOSE)
        if found < 0:
            keep = 2 if text.endswith("]]") else 1 if text.endswith("]") else 0
            body = text[: len(text) - keep]
            self._raw.append(body)
            self._content.append(body)
            self._cdata_tail = text[len(text) - keep :]
            return len(chunk)
        self._raw.append(text[: found + len(CDATA_CLOSE)])
        self._content.append(text[:found])
        self._cdata_tail = ""
        self._mode = _BODY
        return position + found + len(CDATA_CLOSE) - len(tail)

    def _close_element(self) -> None:
        closing = "".join(self._tag)
        raw = self._opening + "".join(self._raw) + closing
        content = "".join(self._content)
        self._events.append(Element(self._element, self._attributes, content, raw, self._repeated))
        self._tag = []
        self._raw = []
        self._content = []
        self._mode = _TEXT


def scan_text(text: str) -> list[ScanEvent]:
    """Scan a whole text at once (the same events as streaming it, merged)."""
    scanner = TagScanner()
    return scanner.feed(text) + scanner.close()
