"""The live view of ``gent run``: streamed model text, tool calls and results, the answer.

Plain text with ANSI colours when the output is a terminal (and ``NO_COLOR`` is unset); a
spinner on stderr while the model loads.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Any, TextIO

from gent_core.agent.events import (
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
from gent_core.sections import SectionEnded, SectionStarted, TextDelta
from gent_core.serialize import write_json

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


def _brief(value: Any, limit: int = _MAX_RESULT) -> str:
    text = value if isinstance(value, str) else write_json(value)
    text = text.strip()
    return text if len(text) <= limit else text[:limit] + f" [... {len(text) - limit} more]"


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

    Args:
        out: Where the run is shown (stdout).
        err: Where the spinner goes (stderr).
        color: Force colours on or off; by default on for terminals unless ``NO_COLOR``.
    """

    def __init__(
        self, out: TextIO | None = None, err: TextIO | None = None, *, color: bool | None = None
    ) -> None:
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        if color is None:
            color = self.out.isatty() and "NO_COLOR" not in os.environ
        self.color = color
        self._spinner: Spinner | None = None
        self._section: str | None = None
        self._started = False  # the current section's first visible text was written
        self._pending = ""  # whitespace held back: written only if more text follows

    def _style(self, text: str, *styles: str) -> str:
        if not self.color or not styles:
            return text
        codes = ";".join(_STYLES[style] for style in styles)
        return f"\x1b[{codes}m{text}\x1b[0m"

    def _write(self, text: str, *styles: str) -> None:
        self.out.write(self._style(text, *styles))
        self.out.flush()

    def __call__(self, event: AgentEvent) -> None:
        """Render one event."""
        if isinstance(event, RunStarted):
            resumed = f" (resuming after step {event.resumed_steps})" if event.resumed_steps else ""
            self._write(f"Task: {event.task}{resumed}\n", "bold")
        elif isinstance(event, ModelLoading):
            if self.err.isatty():
                self._spinner = Spinner(self.err, f"loading model {event.model} ...")
                self._spinner.start()
        elif isinstance(event, ModelLoaded):
            if self._spinner is not None:
                self._spinner.stop()
                self._spinner = None
            self._write(f"model {event.model} ready in {event.seconds:.1f} s\n", "dim")
        elif isinstance(event, StepStarted):
            self._write(f"\n--- step {event.step} ---\n", "dim")
        elif isinstance(event, OutputEvent):
            self._output(event)
        elif isinstance(event, ToolCallsStarted):
            for call in event.calls:
                args = write_json(call.args)
                self._write(f"-> {call.tool} {args}\n", "magenta")
        elif isinstance(event, ToolCallFinished):
            if event.error is not None:
                self._write(
                    f"<- {event.call.tool} failed: {_brief(event.error.model_message)}\n", "red"
                )
            else:
                self._write(f"<- {event.call.tool}: {_brief(event.result.output)}\n", "green")
        elif isinstance(event, FeedbackSent):
            self._write(f"! {_brief(event.message)}\n", "yellow")
        elif isinstance(event, AnswerReady):
            self._write(f"\nAnswer: {_brief(event.answer, 10_000)}\n", "bold", "green")
        elif isinstance(event, RunFinished):
            self._finished(event)

    def _output(self, event: OutputEvent) -> None:
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
        self._write(self._pending + body, *style)
        self._started = True
        self._pending = text[len(body) :]

    def _finished(self, event: RunFinished) -> None:
        result = event.result
        stats = result.stats
        line = (
            f"\n{result.stop_reason}: {result.message} | steps {stats.steps} | tokens "
            f"{stats.input_tokens} in / {stats.output_tokens} out | {stats.total_seconds:.1f} s\n"
        )
        self._write(line, "dim" if result.ok else "red")
