"""The run transcript: a JSONL file appended step by step, and resuming from it.

Each line is one JSON object with a ``type``:

``run``     the header: format version, task, start time, system prompt, config (redacted)
``resume``  a later process continued the run from here
``step``    one completed step (:meth:`StepRecord.to_dict`)
``end``     the run's end: stop reason, answer, statistics

Every line is flushed as soon as it is written, so a run killed mid-way leaves a readable
record of every completed step; a partial last line (killed while writing) is ignored when
reading. Every string (keys included) goes through a redaction function first, so secrets never
reach the file, and every line is strict JSON (:func:`gent_core.serialize.write_json`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from gent_core.agent.records import RunResult, StepRecord
from gent_core.errors import GentError, Location
from gent_core.serialize import write_json

__all__ = ["TRANSCRIPT_VERSION", "Transcript", "TranscriptWriter", "load_transcript"]

TRANSCRIPT_VERSION = 1


def _identity(text: str) -> str:
    return text


class TranscriptWriter:
    """Appends a run's transcript to a JSONL file, one flushed line per event.

    Args:
        path: The transcript file; created if missing, appended to otherwise.
        redact: Applied to every string before writing (e.g. ``LoadedConfig.redact``).
    """

    def __init__(self, path: Path | str, *, redact: Callable[[str], str] | None = None) -> None:
        self.path = Path(path)
        self._redact = redact or _identity
        self._file: IO[str] | None = None

    def _write(self, record: dict[str, Any]) -> None:
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("a", encoding="utf-8")
        line = write_json(record, redact=self._redact)
        self._file.write(line + "\n")
        self._file.flush()

    def start(
        self, task: str, system_prompt: str, *, config: dict[str, Any] | None, resumed_steps: int
    ) -> None:
        """Write the header, or a ``resume`` line when continuing an existing transcript."""
        now = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        if resumed_steps:
            self._write({"type": "resume", "at": now, "after_step": resumed_steps})
            return
        self._write(
            {
                "type": "run",
                "version": TRANSCRIPT_VERSION,
                "task": task,
                "started": now,
                "system_prompt": system_prompt,
                "config": config,
            }
        )

    def step(self, record: StepRecord) -> None:
        """Write one completed step."""
        self._write({"type": "step", **record.to_dict()})

    def end(self, result: RunResult) -> None:
        """Write the run's end."""
        data = result.to_dict()
        self._write(
            {
                "type": "end",
                "stop_reason": data["stop_reason"],
                "message": data["message"],
                "answer": data["answer"],
                "stats": data["stats"],
            }
        )

    def close(self) -> None:
        """Close the file."""
        if self._file is not None:
            self._file.close()
            self._file = None


@dataclass
class Transcript:
    """A transcript read back from disk.

    Attributes:
        task: The run's task.
        steps: The completed steps, in order.
        end: The ``end`` line, or ``None`` when the run did not finish.
        header: The ``run`` line.
    """

    task: str
    steps: list[StepRecord] = field(default_factory=list)
    end: dict[str, Any] | None = None
    header: dict[str, Any] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        """Whether the run reached its end."""
        return self.end is not None


def load_transcript(path: Path | str) -> Transcript:
    """Read a transcript written by :class:`TranscriptWriter`.

    A partial last line (the process was killed while writing it) is ignored.

    Raises:
        GentError: When the file is missing, has no header, or a line other than the last
            is not valid JSON (naming the file and line).
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise GentError(
            f"cannot read transcript: {error}", location=Location(file=str(path))
        ) from error
    transcript: Transcript | None = None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            if number == len(lines):
                break  # cut off while being written
            raise GentError(
                f"transcript line is not valid JSON: {error.msg}",
                location=Location(file=str(path), line=number),
            ) from error
        kind = record.get("type")
        if kind == "run":
            transcript = Transcript(task=str(record.get("task", "")), header=record)
        elif transcript is None:
            raise GentError(
                "transcript does not start with a 'run' line",
                location=Location(file=str(path), line=number),
            )
        elif kind == "step":
            record.pop("type")
            transcript.steps.append(StepRecord.from_dict(record))
        elif kind == "end":
            transcript.end = record
    if transcript is None:
        raise GentError("transcript is empty", location=Location(file=str(path)))
    return transcript
