"""The live view of ``gent run``: streamed model text, tool calls and results, the answer.

Plain text, with ANSI colours by gent's colour rule (:mod:`gent_core._cli.colors`: a
terminal, ``NO_COLOR``, ``FORCE_COLOR``, ``--no-color``); a spinner on stderr while the model
loads, on a terminal only. Secrets are masked and the control characters of
model and tool text are shown as escapes (see :mod:`gent_core._cli.output`); the user's own
text — the task line, the answer section as it streams and the answer — is never redacted.
What the view writes about an event (a step, a tool call or result, feedback, the answer)
always starts on a line of its own, even when the model's streamed text did not end its line.
"""

from __future__ import annotations

import sys
import threading
from typing import Any, TextIO

from gent_core._cli.colors import color_enabled, is_terminal
from gent_core._cli.output import Output, visible
from gent_core._config.secrets import Redactor
from gent_core._serialize import write_json
from gent_core.events import (
    AgentEvent,
    AnswerReady,
    FeedbackSent,
    ModelLoaded,
    ModelLoading,
    OutputEvent,
    RunFinished,
    RunStarted,
    StepStarted,
    ToolCallFinished,
    ToolCallsStarted,
)
from gent_core.records import format_tokens
from gent_core.sections import SectionEnded, SectionStarted, TextDelta

__all__ = ["LiveView", "Spinner"]

_STYLES = {
    "dim": "2",
    "bold": "1",
    "italic": "3",
    "cyan": "36",
    "green": "32",
    "yellow": "33",
    "red": "31",
    "magenta": "35",
}
_MAX_RESULT = 400


class Spinner:
    """A spinner on a terminal, shown from a background thread until stopped."""

    FRAMES = "|/-\\"

    def __init__(self, stream: TextIO, text: str) -> None:
        self._stream = stream
        self._text = text
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._spin, daemon=True)

    def _spin(self) -> None:
        index = 0
        while not self._stop.wait(0.1):
            frame = self.FRAMES[index % len(self.FRAMES)]
            self._stream.write(f"\r{frame} {self._text}")
            self._stream.flush()
            index += 1

    def start(self) -> None:
        """Start spinning."""
        self._thread.start()

    def stop(self) -> None:
        """Stop and erase the spinner line."""
        self._stop.set()
        self._thread.join()
        self._stream.write("\r" + " " * (len(self._text) + 2) + "\r")
        self._stream.flush()


class LiveView:
    """Renders agent events as they happen.

    Every text goes through one :class:`~gent_core._cli.output.Output`: secrets are masked
    (streamed text too, even when a secret is split over chunks) and control characters a
    model or a tool wrote are shown as escapes, never sent to the terminal raw. The user's own
    text is shown as written, never redacted: the task, the answer section while it streams
    (:attr:`RunStarted.answer_section <gent_core.events.RunStarted>`) and the answer.

    Args:
        out: Where the run is shown (stdout).
        err: Where the spinner goes (stderr).
        color: Force colours on or off; by default :func:`~gent_core._cli.colors.color_enabled`
            for ``out`` (a terminal, unless ``NO_COLOR``; ``FORCE_COLOR`` forces them).
        redactor: The secrets to mask (``LoadedConfig.redactor``); none by default.
        show_task: Whether each run starts with its task (``gent chat`` leaves it out: the
            user just typed it).
    """

    def __init__(
        self,
        out: TextIO | None = None,
        err: TextIO | None = None,
        *,
        color: bool | None = None,
        redactor: Redactor | None = None,
        show_task: bool = True,
    ) -> None:
        self.out = out or sys.stdout
        self.show_task = show_task
        self.err = err or sys.stderr
        if color is None:
            color = color_enabled(self.out)
        self.color = color
        self._output = Output(redactor, out=self.out, err=self.err)
        self._stream = redactor.stream() if redactor is not None else None
        self._stream_styles: tuple[str, ...] = ()
        self._spinner: Spinner | None = None
        self._section: str | None = None
        self._answer_section = "answer"
        self._started = False  # the current section's first visible text was written
        self._pending = ""  # whitespace held back: written only if more text follows
        self._line_start = True  # what was written last ended its line

    def _style(self, text: str, *styles: str) -> str:
        if not self.color or not styles or not text:
            return text
        codes = ";".join(_STYLES[style] for style in styles)
        return f"\x1b[{codes}m{text}\x1b[0m"

    def _emit(self, shown: str, *styles: str) -> None:
        """Write ``shown`` (already redacted and cleaned) styled; remember where the line is."""
        if shown:
            self._output.write(self._style(shown, *styles), clean=False)
            self._line_start = shown.endswith("\n")

    def _write(self, text: str, *styles: str, redact: bool = True) -> None:
        """Write ``text`` redacted (unless ``redact`` is false: the user's own text), with
        control characters visible, then styled.
        """
        self._flush_stream()
        self._emit(self._output.clean(text, redact=redact), *styles)

    def _line(self, text: str, *styles: str, redact: bool = True) -> None:
        """Write ``text`` like :meth:`_write`, starting on a line of its own."""
        self._flush_stream()
        if not self._line_start:
            self._emit("\n")
        self._emit(self._output.clean(text, redact=redact), *styles)

    def _brief(self, value: Any, limit: int = _MAX_RESULT) -> str:
        """``value`` on one line, redacted *before* it is cut (no half secret is shown); the
        string values of data are redacted, never its keys.
        """
        redact = self._output.redact
        text = redact(value) if isinstance(value, str) else write_json(value, redact=redact)
        text = text.strip()
        return text if len(text) <= limit else text[:limit] + f" [... {len(text) - limit} more]"

    def _write_streamed(self, text: str, *styles: str, redact: bool = True) -> None:
        """Write streamed model text: the end of it may be held back while it could be the
        start of a secret (see :class:`~gent_core._config.secrets.StreamRedactor`); with
        ``redact`` false (the answer section), it is written as it comes.
        """
        if not redact:
            self._flush_stream()
        elif self._stream is not None:
            if styles != self._stream_styles:
                self._flush_stream()
            self._stream_styles = styles
            text = self._stream.feed(text)
        self._emit(visible(text), *styles)

    def _flush_stream(self) -> None:
        if self._stream is not None:
            held = self._stream.flush()
            if held:
                self._emit(visible(held), *self._stream_styles)

    def __call__(self, event: AgentEvent) -> None:
        """Render one event."""
        if isinstance(event, RunStarted):
            self._answer_section = event.answer_section
            resumed = f" (resuming after step {event.resumed_steps})" if event.resumed_steps else ""
            if self.show_task:
                self._write(f"Task: {event.task}{resumed}\n", "bold", redact=False)
        elif isinstance(event, ModelLoading):
            if is_terminal(self.err):
                self._spinner = Spinner(
                    self.err, self._output.clean(f"loading model {event.model} ...")
                )
                self._spinner.start()
        elif isinstance(event, ModelLoaded):
            if self._spinner is not None:
                self._spinner.stop()
                self._spinner = None
            self._line(f"model {event.model} ready in {event.seconds:.1f} s\n", "dim")
        elif isinstance(event, StepStarted):
            self._line(f"\n--- step {event.step} ---\n", "dim")
        elif isinstance(event, OutputEvent):
            self._output_event(event)
        elif isinstance(event, ToolCallsStarted):
            for call in event.calls:
                self._line(f"-> {call.tool} {self._brief(call.args, 10_000)}\n", "magenta")
        elif isinstance(event, ToolCallFinished):
            if event.error is not None:
                self._line(
                    f"<- {event.call.tool} failed: {self._brief(event.error.model_message)}\n",
                    "red",
                )
            else:
                self._line(f"<- {event.call.tool}: {self._brief(event.result.output)}\n", "green")
        elif isinstance(event, FeedbackSent):
            self._line(f"! {self._brief(event.message)}\n", "yellow")
        elif isinstance(event, AnswerReady):
            answer = event.answer
            text = answer if isinstance(answer, str) else write_json(answer)
            self._line(f"\nAnswer: {text}\n", "bold", "green", redact=False)
        elif isinstance(event, RunFinished):
            self._finished(event)

    def _output_event(self, event: OutputEvent) -> None:
        inner = event.event
        if isinstance(inner, SectionStarted):
            if self._started:  # chatter before this section ends with its own line
                self._write("\n")
            self._section, self._started, self._pending = inner.name, False, ""
            self._write(f"[{inner.name}] ", "cyan", "bold")
        elif isinstance(inner, TextDelta):
            self._delta(inner)
        elif isinstance(inner, SectionEnded):
            self._section, self._started, self._pending = None, False, ""
            self._write("\n")

    def _delta(self, delta: TextDelta) -> None:
        """Write streamed text trimmed like the parsed sections: no blank lines around it.

        Text outside every section (chatter) is shown dimmed, trimmed the same way.
        """
        text = delta.text if self._started else delta.text.lstrip()
        if not text:
            return
        body = text.rstrip()
        if not body:
            self._pending += text
            return
        style = ("dim", "italic") if delta.section in (None, "thinking") else ()
        redact = delta.section != self._answer_section
        self._write_streamed(self._pending + body, *style, redact=redact)
        self._started = True
        self._pending = text[len(body) :]

    def _finished(self, event: RunFinished) -> None:
        result = event.result
        stats = result.stats
        tokens = format_tokens(
            stats.input_tokens, stats.output_tokens, reported=stats.tokens_reported
        )
        line = (
            f"\n{result.stop_reason}: {result.message} | steps {stats.steps} | tokens "
            f"{tokens} | {stats.total_seconds:.1f} s\n"
        )
        self._line(line, "dim" if result.ok else "red")
