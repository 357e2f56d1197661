"""One model call: stream the output through the format's incremental parser and stop as
soon as the action or answer section has closed, so the model never writes its own
observation.

The output is parsed once, while it streams: the parse result comes out of the same
incremental parser. When the back end stopped on a stop sequence (which back ends drop) with
the action or answer open, what the format says the stop took from the section
(:meth:`~gent_core.formats.TextFormat.restore_after_stop`: a closing delimiter, or the line
end before Markdown's observation header) is fed back to the parser, so the section is
complete and the recorded output reads as the model meant it.

Bounds (``limits``): a call writes at most ``max_output_chars`` characters; at the bound the
stream is closed and the output ends with the finish reason :data:`OUTPUT_LIMIT`. A call that
is still writing at ``model_timeout`` ends the same way with :data:`TIME_LIMIT` (one that wrote
nothing by then is a :class:`~gent_core.errors.ModelError`), and a back end that sends no text
for ``model_idle_timeout`` seconds is taken as hung (a ``ModelError``). The run treats both
finish reasons like an output cut off by the back end: nothing in it is used.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from gent_core.context import Limits
from gent_core.errors import GentError, ModelError, ParseError, describe_error
from gent_core.events import AgentEvent, OutputEvent
from gent_core.formats import IncrementalParser, TextFormat
from gent_core.model import Model, ModelRequest, Usage
from gent_core.sections import ParseResult, Section, SectionEnded, SectionStarted

__all__ = [
    "CUT_OFF_FINISH_REASONS",
    "OUTPUT_LIMIT",
    "TIME_LIMIT",
    "ModelOutput",
    "cut_off_by_back_end",
    "stream_model_output",
]

OUTPUT_LIMIT = "output_limit"
"""The finish reason of an output the agent stopped at ``limits.max_output_chars``."""

TIME_LIMIT = "time_limit"
"""The finish reason of an output still being written when ``limits.model_timeout`` passed."""

CUT_OFF_FINISH_REASONS = frozenset({"length", "max_tokens", "max_output_tokens", "token_limit"})
"""Finish reasons (compared case-insensitively) meaning the back end stopped generating at a
token limit: ``length`` (OpenAI-compatible servers, llama.cpp), ``max_tokens`` (Anthropic,
Gemini's ``MAX_TOKENS``) and their variants."""


def cut_off_by_back_end(finish_reason: str | None) -> bool:
    """Whether ``finish_reason`` says the output was cut off by a token limit."""
    return finish_reason is not None and finish_reason.lower() in CUT_OFF_FINISH_REASONS


def cut_off(finish_reason: str | None) -> bool:
    """Whether an output with ``finish_reason`` was cut off, by the back end's token limit or
    at one of the agent's own bounds (:data:`OUTPUT_LIMIT`, :data:`TIME_LIMIT`): nothing in
    it may be used.
    """
    return finish_reason in (OUTPUT_LIMIT, TIME_LIMIT) or cut_off_by_back_end(finish_reason)


@dataclass(frozen=True)
class ModelOutput:
    """What one model call produced.

    Attributes:
        text: The output, cut right after the first closed action/answer section.
        usage: Token counts, when the back end reported them.
        finish_reason: The back end's finish reason (``"stop"``, ``"length"``...), or
            ``"section_closed"`` when the agent stopped the stream itself after the action or
            answer, :data:`OUTPUT_LIMIT` or :data:`TIME_LIMIT` when it stopped it at a bound.
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


class _Watch:
    """Cancels the current task when the call's deadline or its idle deadline passes: what
    :func:`asyncio.timeout` does, with two deadlines, and on Python 3.10 too.

    Args:
        timeout: Seconds the whole call may take, or ``None``.
        idle: Seconds the call may go without text, or ``None``.
    """

    def __init__(self, timeout: float | None, idle: float | None) -> None:
        self.loop = asyncio.get_running_loop()
        self.task = asyncio.current_task()
        self.deadline = self.loop.time() + timeout if timeout is not None else None
        self.idle = idle
        self.expired: str | None = None  # "call" or "idle" once a deadline passed
        self.handle: asyncio.TimerHandle | None = None
        self._withdrawn = False
        self._others = False
        self.progress()

    def progress(self) -> None:
        """Text arrived: the idle deadline starts again."""
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None
        deadlines: list[tuple[float, str]] = []
        if self.deadline is not None:
            deadlines.append((self.deadline, "call"))
        if self.idle is not None:
            deadlines.append((self.loop.time() + self.idle, "idle"))
        if deadlines and self.task is not None and self.expired is None:
            when, kind = min(deadlines)
            self.handle = self.loop.call_at(when, self._expire, kind)

    def _expire(self, kind: str) -> None:
        self.expired = kind
        assert self.task is not None  # only armed inside a task
        self.task.cancel()

    def disarm(self) -> str | None:
        """Stop watching; return which deadline passed (``"call"``, ``"idle"``) or ``None``.

        A cancellation of ours is withdrawn (once), so the task goes on normally.
        """
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None
        if self.expired is not None:
            self.withdraw()
        return self.expired

    def withdraw(self) -> bool:
        """Withdraw our cancellation request (once); return whether others remain (the run
        itself is being cancelled), which must not be swallowed.
        """
        if not self._withdrawn:
            self._withdrawn = True
            uncancel = getattr(self.task, "uncancel", None)  # Python 3.11+
            if uncancel is not None:
                self._others = uncancel() > 0
        return self._others


async def stream_model_output(
    model: Model,
    request: ModelRequest,
    text_format: TextFormat,
    sections: Sequence[Section],
    closing: Collection[str],
    emit: Callable[[AgentEvent], None],
    step: int,
    limits: Limits,
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
        limits: The run's limits: ``max_output_chars``, ``model_timeout`` and
            ``model_idle_timeout`` bound the call.

    Raises:
        ModelError: When the back end fails, sends no text for ``model_idle_timeout``
            seconds, or wrote nothing within ``model_timeout``.
    """
    streamer = _Streamer(text_format, sections, closing, emit, step)
    received = _Received()
    started = time.perf_counter()
    stream: Any = None
    watch = _Watch(limits.model_timeout, limits.model_idle_timeout)
    failure: Exception | None = None
    try:
        stream = model.stream(request)
        await received.consume(stream, streamer, watch, limits.max_output_chars)
    except asyncio.CancelledError:
        if watch.expired is None or watch.withdraw():
            raise
    except Exception as error:  # noqa: BLE001 - a back end's failure becomes a ModelError
        failure = error
    finally:
        expired = watch.disarm()
        aclose = getattr(stream, "aclose", None)
        if aclose is not None:
            try:
                await aclose()
            except Exception as error:  # noqa: BLE001 - closing is the back end's too
                failure = failure or error
    if _check_ending(expired, failure, received.chars, limits):
        received.stopped = TIME_LIMIT
    seconds = time.perf_counter() - started
    finish_reason = received.finish_reason
    if streamer.cut_at is not None:
        finish_reason = "section_closed"
    elif received.stopped is not None:
        finish_reason = received.stopped
    text, parsed, problem, restored = streamer.finish(finish_reason)
    return ModelOutput(text, received.usage, finish_reason, seconds, parsed, problem, restored)


@dataclass
class _Received:
    """What a model call's stream delivered so far."""

    usage: Usage = field(default_factory=Usage)
    finish_reason: str | None = None
    stopped: str | None = None
    """:data:`OUTPUT_LIMIT` when the output reached ``max_output_chars``."""
    chars: int = 0

    async def consume(
        self, stream: Any, streamer: _Streamer, watch: _Watch, max_chars: int
    ) -> None:
        """Feed the stream's text to ``streamer`` until it ends, a closing section ends,
        ``max_chars`` are reached, or the watch expired.
        """
        async for chunk in stream:
            self.usage = chunk.usage or self.usage
            self.finish_reason = chunk.finish_reason or self.finish_reason
            text = chunk.text
            if text:
                watch.progress()
                room = max_chars - self.chars
                over = len(text) > room
                if over:
                    text = text[:room]
                self.chars += len(text)
                if text:
                    streamer.pieces.append(text)
                    streamer.feed(text)
                if streamer.cut_at is not None:
                    return
                if over:
                    self.stopped = OUTPUT_LIMIT
                    return
            if watch.expired is not None:  # a back end that swallowed the cancellation
                return


def _check_ending(
    expired: str | None, failure: Exception | None, received: int, limits: Limits
) -> bool:
    """Whether the output was stopped at the call's time limit (``timeouts.model``) after
    ``received`` characters.

    Raises:
        ModelError: When the back end was silent for ``model_idle_timeout``, wrote nothing
            within ``model_timeout``, or failed.
    """
    if expired == "idle":
        after = f" after {received:,} characters" if received else ""
        raise ModelError(
            f"the model sent no output for {limits.model_idle_timeout:g} s{after} "
            "(timeouts.model_idle): the back end seems hung",
            hint="A model that is slow to start (a long prompt on a CPU) may need a higher "
            "timeouts.model_idle (null: no limit).",
        )
    if expired == "call":
        if not received:
            raise ModelError(f"the model did not finish within {limits.model_timeout:g} s")
        return True
    if isinstance(failure, ModelError):
        raise failure
    if failure is not None:  # any other error of the back end, gent's own errors included
        raise _model_error(failure) from failure
    return False


def _model_error(failure: Exception) -> ModelError:
    """A back end's failure as the :class:`ModelError` that ends the run (stop reason
    ``model_error``): its message (with the class of an exception from outside gent) and hint.
    """
    if isinstance(failure, GentError):
        return ModelError(f"the model failed: {failure.message}", hint=failure.hint)
    return ModelError(f"the model failed: {describe_error(failure)}")
