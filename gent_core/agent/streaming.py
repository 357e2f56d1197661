"""One model call: stream the output through the format's incremental parser and stop as
soon as the action or answer section has closed, so the model never writes its own
observation.

The output is parsed once, while it streams: the parse result comes out of the same
incremental parser. When the back end stopped on a stop sequence (which back ends drop) with
the action or answer open, what the format says the stop took from the section
(:meth:`~gent_core.formats.TextFormat.restore_after_stop`: a closing delimiter, or the line
end before Markdown's observation header) is fed back to the parser, so the section is
complete and the recorded output reads as the model meant it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from gent_core.agent.events import AgentEvent, OutputEvent
from gent_core.errors import GentError, ModelError, ParseError, describe_error
from gent_core.formats import IncrementalParser, TextFormat
from gent_core.model import Model, ModelRequest, Usage
from gent_core.sections import ParseResult, Section, SectionEnded, SectionStarted

__all__ = ["ModelOutput", "stream_model_output"]


@dataclass(frozen=True)
class ModelOutput:
    """What one model call produced.

    Attributes:
        text: The output, cut right after the first closed action/answer section.
        usage: Token counts, when the back end reported them.
        finish_reason: The back end's finish reason (``"stop"``, ``"length"``...), or
            ``"section_closed"`` when the agent stopped the stream itself.
        seconds: Wall time of the call.
        parsed: The sections of ``text``, or ``None`` when parsing failed.
        parse_error: Why parsing failed (no recognised section...), else ``None``.
        restored: The closing delimiter the agent appended, if any.
    """

    text: str
    usage: Usage
    finish_reason: str | None
    seconds: float
    parsed: ParseResult | None = None
    parse_error: ParseError | None = None
    restored: str | None = None


def _result(parser: IncrementalParser) -> tuple[ParseResult | None, ParseError | None]:
    try:
        return parser.result(), None
    except ParseError as error:
        return None, error


class _Streamer:
    """The state of one streamed model call: text so far, the open section, the cut point."""

    def __init__(
        self,
        text_format: TextFormat,
        sections: Sequence[Section],
        closing: Collection[str],
        emit: Callable[[AgentEvent], None],
        step: int,
    ) -> None:
        self.format = text_format
        self.sections = sections
        self.closing = closing
        self.emit = emit
        self.step = step
        self.parser = text_format.incremental_parser(sections)
        self.pieces: list[str] = []
        self.open_section: str | None = None
        self.cut_at: int | None = None

    def feed(self, text: str) -> None:
        """Parse ``text``; note the open section and where a closing section ended.

        A chunk is handled whole: when one chunk closes both an answer and an action, both
        stay in the output (and the action wins, as the loop's rules say).
        """
        for event in self.parser.feed(text):
            self.emit(OutputEvent(self.step, event))
            if isinstance(event, SectionStarted):
                self.open_section = event.name
            elif isinstance(event, SectionEnded):
                self.open_section = None
                if event.complete and event.name in self.closing:
                    self.cut_at = max(self.cut_at or 0, event.section.end)

    def one_shot(self, text: str) -> tuple[ParseResult | None, ParseError | None]:
        try:
            return self.format.parse(text, self.sections), None
        except ParseError as error:
            return None, error

    def finish(
        self, finish_reason: str | None
    ) -> tuple[str, ParseResult | None, ParseError | None, str | None]:
        """Return the output text, its parse (or the parse error) and any restored delimiter."""
        text = "".join(self.pieces)
        if self.cut_at is not None:
            if self.cut_at < len(text):  # text after the section in the same chunk: drop it
                text = text[: self.cut_at]
                return (text, *self.one_shot(text), None)
            self.parser.close()
            return (text, *_result(self.parser), None)
        open_section = self.open_section
        if finish_reason == "stop" and open_section is not None and open_section in self.closing:
            delimiter = self.format.restore_after_stop(open_section)
            if delimiter is not None:
                # The output is over: feed what the stop took and close, so a format that
                # decides a delimiter only at a line end (or at the end) sees it whole.
                self.feed(delimiter)
                for event in self.parser.close():
                    self.emit(OutputEvent(self.step, event))
                parsed, error = _result(self.parser)
                last = parsed.sections[-1] if parsed is not None and parsed.sections else None
                if last is None or last.name != open_section or not last.complete:
                    return (text, *self.one_shot(text), None)  # it did not close after all
                return (text + delimiter, parsed, error, delimiter)
        for event in self.parser.close():
            self.emit(OutputEvent(self.step, event))
        return (text, *_result(self.parser), None)


async def stream_model_output(
    model: Model,
    request: ModelRequest,
    text_format: TextFormat,
    sections: Sequence[Section],
    closing: Collection[str],
    emit: Callable[[AgentEvent], None],
    step: int,
    timeout: float | None,
) -> ModelOutput:
    """Call ``model`` and stream its output through ``text_format``'s incremental parser.

    Args:
        model: The back end.
        request: The request.
        text_format: The format whose parser reads the stream.
        sections: The registered sections.
        closing: Section names whose completion ends generation (action, answer).
        emit: Receives an :class:`OutputEvent` per section event.
        step: The step number, for the events.
        timeout: Seconds the whole call may take, or ``None``.

    Raises:
        ModelError: When the back end fails or the call times out.
    """
    streamer = _Streamer(text_format, sections, closing, emit, step)
    usage = Usage()
    finish_reason: str | None = None
    started = time.perf_counter()
    stream = model.stream(request)

    async def consume() -> None:
        nonlocal usage, finish_reason
        async for chunk in stream:
            usage = chunk.usage or usage
            finish_reason = chunk.finish_reason or finish_reason
            if chunk.text:
                streamer.pieces.append(chunk.text)
                streamer.feed(chunk.text)
                if streamer.cut_at is not None:
                    return

    try:
        if timeout is None:
            await consume()
        else:
            await asyncio.wait_for(consume(), timeout)
    except asyncio.TimeoutError as error:
        raise ModelError(f"the model did not finish within {timeout:g} s") from error
    except GentError:
        raise
    except Exception as error:
        raise ModelError(f"the model failed: {describe_error(error)}") from error
    finally:
        aclose = getattr(stream, "aclose", None)
        if aclose is not None:
            await aclose()
    seconds = time.perf_counter() - started
    if streamer.cut_at is not None:
        finish_reason = "section_closed"
    text, parsed, problem, restored = streamer.finish(finish_reason)
    return ModelOutput(text, usage, finish_reason, seconds, parsed, problem, restored)
