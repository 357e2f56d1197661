"""The lines of a run's records, one builder each: what a transcript file holds line by line
and the history database record by record (the history's recorder builds its records here).

Each builder returns the line before redaction; its writer redacts it with the run's
``context.redact`` (:func:`~gent_core.records.redact_record`) as it writes it.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Protocol

from gent_core.errors import GentError
from gent_core.records import RunResult, StepRecord

__all__ = [
    "TRANSCRIPT_VERSION",
    "RecordedAgent",
    "TranscriptError",
    "end_line",
    "resume_line",
    "run_line",
    "step_line",
]

TRANSCRIPT_VERSION = 1


class TranscriptError(GentError):
    """A transcript that cannot be written or read; the location names the file (and line)."""


class RecordedAgent(Protocol):
    """What a run's header records of its agent (an :class:`~gent_core.Agent` is one)."""

    @property
    def config_summary(self) -> dict[str, Any] | None:
        """The (redacted) configuration, so the run can be resumed without it."""
        ...

    @property
    def config_file(self) -> Path | None:
        """The config file the agent came from (what resuming reloads for masked secrets)."""
        ...

    def system_prompt(self) -> str:
        """The exact system prompt."""
        ...


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def run_line(task: str, agent: RecordedAgent) -> dict[str, Any]:
    """The ``run`` line (the header) of a run's records: the format version, the task, the
    start time, the agent's system prompt, its (redacted) configuration and config file.
    """
    return {
        "type": "run",
        "version": TRANSCRIPT_VERSION,
        "task": task,
        "started": _now(),
        "system_prompt": agent.system_prompt(),
        "config": agent.config_summary,
        "config_file": str(agent.config_file) if agent.config_file is not None else None,
    }


def resume_line(after_step: int) -> dict[str, Any]:
    """The ``resume`` line: a later process continued the run after step ``after_step``."""
    return {"type": "resume", "at": _now(), "after_step": after_step}


def step_line(record: StepRecord) -> dict[str, Any]:
    """The ``step`` line of one completed step."""
    return {"type": "step", **record.to_dict()}


def end_line(result: RunResult) -> dict[str, Any]:
    """The ``end`` line of a run: stop reason, message, answer and statistics."""
    data = result.to_dict()
    return {
        "type": "end",
        "stop_reason": data["stop_reason"],
        "message": data["message"],
        "answer": data["answer"],
        "stats": data["stats"],
    }
