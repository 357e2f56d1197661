"""Build native messages from the elements and prose of one text (text -> native).

The rules mirror how :mod:`gent_natural.render` writes a turn, so text -> native -> text
gives the text back:

* prose before the first call is the first assistant message's content;
* calls separated by nothing but line breaks or the separator line (``---``) belong to one
  assistant message (parallel calls); after a response, a call with only line breaks before
  it starts the next assistant message;
* prose between calls starts the next assistant message, prose after the last one becomes a
  final assistant message;
* each ``<tool_response>`` answers the earliest unanswered call of the current message with
  the same name (else the earliest unanswered one) and becomes a ``role: tool`` message; the
  note written for a missing result gives no message.

What cannot be used (a response answering no call, a ``<tool_call>`` naming no tool, an
element never closed) stays in the text as it was written, with a problem reported.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Mapping
from typing import TYPE_CHECKING

from gent_core.messages import ContentPart, Message, MessageToolCall, TextPart
from gent_natural.events import (
    MessageReady,
    NaturalEvent,
    ProseDelta,
    ToolCallRead,
    ToolResponseRead,
)
from gent_natural.ids import CallIds
from gent_natural.reading import NotACall, ResponseReading, read_call, read_response
from gent_natural.scanner import BrokenElement, Element, ProseText, ScanEvent
from gent_natural.tags import CALL_TAG, strip_joiners

if TYPE_CHECKING:
    from gent_core.tools.base import Tool

__all__ = ["MessageAssembler"]

logger = logging.getLogger("gent_natural")


class MessageAssembler:
    """Turns the scan events of one text into native messages, as soon as each is certain.

    Args:
        ids: Where call ids come from.
        tools: The known tools by name (arguments are checked), or ``None``.
        separator: The line between parallel calls.
        source: The message the text comes from: its metadata, name and images go to the
            first message built.
    """

    def __init__(
        self,
        ids: CallIds | None = None,
        *,
        tools: Mapping[str, Tool] | None = None,
        separator: str = "---",
        source: Message | None = None,
    ) -> None:
        self.ids = ids or CallIds()
        self.tools = tools
        self.separator = separator.strip()
        self.source = source
        self.problems: list[str] = []
        self.calls = 0
        self._gap: list[str] = []
        self._started = False
        self._emitted_first = False
        self._last = ""  # "call" or "response" once an element was used
        self._content: str | None = None
        self._calls: list[MessageToolCall] = []
        self._answers: list[ResponseReading | None] = []
        self._by_name: dict[str, deque[int]] = {}
        self._earliest = 0
        self._probe = ""  # the prose since the last element, while it may be a separator

    @property
    def found_elements(self) -> bool:
        """Whether at least one call was read (else the text holds no tool use)."""
        return self._started

    # ------------------------------------------------------------------ events

    def add(self, event: ScanEvent) -> list[NaturalEvent]:
        """Take one scan event; return what it made certain."""
        if isinstance(event, ProseText):
            self._gap.append(event.text)
            if not self._calls:
                return [ProseDelta(event.text)]
            return [ProseDelta(event.text), *self._settle(event.text)]
        if isinstance(event, BrokenElement):
            return self._as_text(event.raw, f"{event.problem}; kept as text")
        if event.tag == CALL_TAG:
            return self._call(event)
        return self._response(event)

    def finish(self) -> list[NaturalEvent]:
        """End of text: the last messages (nothing when no call was found)."""
        if not self._started:
            return []
        out = self._emit()
        trailing = strip_joiners(self._take_gap(), trailing=False)
        if trailing.strip():
            out.append(MessageReady(self._message(Message.assistant(trailing))))
        return out

    # ------------------------------------------------------------------ elements

    def _problem(self, problem: str) -> None:
        self.problems.append(problem)
        logger.warning("natural: %s", problem)

    def _as_text(self, raw: str, problem: str) -> list[NaturalEvent]:
        self._problem(problem)
        self._gap.append(raw)
        return [ProseDelta(raw), *self._settle(raw)]

    def _settle(self, text: str) -> list[NaturalEvent]:
        """Emit the current message as soon as the prose after its calls shows that no
        further call can join it (anything but line breaks and the separator).
        """
        if not self._calls:
            return []
        probe = (self._probe + text).lstrip()
        candidate = probe.rstrip()
        if candidate and not self.separator.startswith(candidate):
            return self._emit()
        self._probe = candidate + (" " if probe != candidate else "")  # bounded
        return []

    def _take_gap(self) -> str:
        gap = "".join(self._gap)
        self._gap = []
        return gap

    def _call(self, element: Element) -> list[NaturalEvent]:
        try:
            readings = read_call(element, self.tools)
        except NotACall as error:
            return self._as_text(element.raw, f"{error}; kept as text")
        out: list[NaturalEvent] = []
        gap = self._take_gap()
        blank = gap.strip() in ("", self.separator)
        if not self._started:
            self._started = True
            self._content = strip_joiners(gap, leading=False) or None
        elif not blank or (self._last == "response" and gap.strip() != self.separator):
            out += self._emit()
            self._content = strip_joiners(gap) if gap.strip() else None
        for reading in readings:
            call = MessageToolCall(self.ids.new(), reading.name, reading.arguments)
            self._by_name.setdefault(call.name, deque()).append(len(self._calls))
            self._calls.append(call)
            self._answers.append(None)
            self.calls += 1
            if reading.problem is not None:
                self._problem(f"call {call.id} to {call.name!r}: {reading.problem}")
            out.append(ToolCallRead(call, reading.problem))
        self._last = "call"
        self._probe = ""
        return out

    def _response(self, element: Element) -> list[NaturalEvent]:
        reading = read_response(element)
        index = self._unanswered(reading.name)
        if index is None:
            return self._as_text(element.raw, "a <tool_response> answers no call; kept as text")
        self._take_gap()  # only line breaks or the separator: prose would have ended the call
        self._answers[index] = reading
        self._last = "response"
        self._probe = ""
        if reading.missing:
            return []
        return [ToolResponseRead(self._tool_message(self._calls[index], reading))]

    def _unanswered(self, name: str | None) -> int | None:
        """The earliest unanswered call named ``name``, else the earliest unanswered call."""
        answers = self._answers
        queue = self._by_name.get(name or "")
        while queue and answers[queue[0]] is not None:
            queue.popleft()
        if queue:
            return queue.popleft()
        while self._earliest < len(answers) and answers[self._earliest] is not None:
            self._earliest += 1
        return self._earliest if self._earliest < len(answers) else None

    # ------------------------------------------------------------------ messages

    def _tool_message(self, call: MessageToolCall, reading: ResponseReading) -> Message:
        return Message.tool_result(
            call.id, reading.content, name=reading.name or call.name, is_error=reading.is_error
        )

    def _message(self, message: Message) -> Message:
        """Give the first message the source's metadata, name and images."""
        if self._emitted_first or self.source is None:
            return message
        self._emitted_first = True
        source = self.source
        parts: tuple[ContentPart, ...] = (*message.parts, *source.images)
        return Message(
            message.role,
            parts,
            message.tool_calls,
            name=source.name,
            metadata=dict(source.metadata),
        )

    def _emit(self) -> list[NaturalEvent]:
        if not self._calls:
            return []
        parts = (TextPart(self._content),) if self._content else ()
        out: list[NaturalEvent] = [
            MessageReady(self._message(Message("assistant", parts, tuple(self._calls))))
        ]
        for call, answer in zip(self._calls, self._answers, strict=True):
            if answer is not None and not answer.missing:
                out.append(MessageReady(self._tool_message(call, answer)))
        self._calls, self._answers, self._content = [], [], None
        self._by_name, self._earliest = {}, 0
        self._probe = ""
        return out

    def __repr__(self) -> str:
        return f"<MessageAssembler calls={self.calls} problems={len(self.problems)}>"
