"""What an evaluation produced: one record per run, and the whole result (JSON-ready)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from gent_core.bounds import to_jsonable
from gent_eval.checks import CheckOutcome

if TYPE_CHECKING:
    from gent_eval.configs import Configuration
    from gent_eval.stats import ConfigurationSummary

__all__ = ["EvalResult", "RunRecord", "RunStatus"]

RunStatus = Literal["passed", "failed", "error"]
"""``passed``: answered and every check passed; ``failed``: ran, but did not answer or a
check failed; ``error``: could not run (the model back end failed, a fixture could not be
written, a time limit...)."""


@dataclass
class RunRecord:
    """One run of one task under one configuration.

    Attributes:
        configuration: The configuration's label.
        task: The task's id.
        repeat: Which repetition (1-based).
        status: ``passed``, ``failed`` or ``error``.
        stop_reason: Why the agent stopped (``None`` when it could not run).
        answer: The answer (JSON-ready), if any.
        checks: Each check's verdict.
        steps: Steps taken.
        format_errors: Steps whose output could not be used (feedback was sent).
        tool_errors: Tool calls that failed.
        tool_calls: Tool calls made.
        input_tokens: Prompt tokens over the run's model calls.
        output_tokens: Generated tokens over the run's model calls.
        tokens_reported: Whether the back end reported token counts for any model call (a
            server that does not leaves both counts at 0).
        seconds: Wall time of the run (model loading excluded).
        transcript: The run's JSONL transcript, if kept.
        error: Why the run could not run, or why the agent stopped without an answer.
    """

    configuration: str
    task: str
    repeat: int
    status: RunStatus
    stop_reason: str | None = None
    answer: Any = None
    checks: list[CheckOutcome] = field(default_factory=list)
    steps: int = 0
    format_errors: int = 0
    tool_errors: int = 0
    tool_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    tokens_reported: bool = False
    seconds: float = 0.0
    transcript: str | None = None
    error: str | None = None

    @property
    def passed(self) -> bool:
        """Whether the task was solved."""
        return self.status == "passed"

    def failure(self) -> str:
        """Why the run did not pass, in one line (empty when it passed)."""
        if self.status == "error" or (self.stop_reason not in (None, "answer")):
            return self.error or f"stopped: {self.stop_reason}"
        failed = [f"{check.check}: {check.detail}" for check in self.checks if not check.passed]
        return "; ".join(failed)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "configuration": self.configuration,
            "task": self.task,
            "repeat": self.repeat,
            "status": self.status,
            "stop_reason": self.stop_reason,
            "answer": to_jsonable(self.answer),
            "checks": [check.to_dict() for check in self.checks],
            "steps": self.steps,
            "format_errors": self.format_errors,
            "tool_errors": self.tool_errors,
            "tool_calls": self.tool_calls,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "tokens_reported": self.tokens_reported,
            "seconds": round(self.seconds, 4),
            "transcript": self.transcript,
            "error": self.error,
        }


@dataclass
class EvalResult:
    """Everything an evaluation produced.

    Attributes:
        suite: The suite's name.
        suite_path: The suite file, if any.
        configurations: The configurations, in order.
        records: Every run, in the order they finished.
        repeat: Runs per task and configuration.
        concurrency: Runs allowed at once (as asked).
        started: When the evaluation started (ISO 8601).
        seconds: Wall time of the whole evaluation.
        notes: Remarks for the reader (a back end that serialised runs, ...).
        transcripts: The folder of the run transcripts, if kept.
        tasks: Task ids, in suite order.
        complete: ``False`` when the evaluation was interrupted.
    """

    suite: str
    suite_path: str | None
    configurations: list[Configuration]
    records: list[RunRecord]
    repeat: int
    concurrency: int
    started: str
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    transcripts: str | None = None
    tasks: list[str] = field(default_factory=list)
    complete: bool = True

    @property
    def errors(self) -> list[RunRecord]:
        """The runs that could not run."""
        return [record for record in self.records if record.status == "error"]

    def summaries(self) -> list[ConfigurationSummary]:
        """One summary per configuration, in order."""
        from gent_eval.stats import summarise

        return [
            summarise(
                configuration.label,
                [record for record in self.records if record.configuration == configuration.label],
            )
            for configuration in self.configurations
        ]

    def to_dict(self) -> dict[str, Any]:
        """The JSON report: the settings, one summary per configuration, every run."""
        return {
            "suite": self.suite,
            "suite_path": self.suite_path,
            "started": self.started,
            "seconds": round(self.seconds, 3),
            "repeat": self.repeat,
            "concurrency": self.concurrency,
            "complete": self.complete,
            "transcripts": self.transcripts,
            "notes": list(self.notes),
            "tasks": list(self.tasks),
            "configurations": [configuration.to_dict() for configuration in self.configurations],
            "summary": [summary.to_dict() for summary in self.summaries()],
            "runs": [record.to_dict() for record in self.records],
        }
