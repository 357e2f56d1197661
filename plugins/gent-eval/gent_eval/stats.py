"""Statistics of an evaluation: success rates with Wilson confidence intervals, and the
per-configuration summary (one table row).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["Z_95", "ConfigurationSummary", "RunOutcome", "summarise", "wilson_interval"]


class RunOutcome(Protocol):
    """What a summary reads from one run (a :class:`~gent_eval.records.RunRecord`); a
    protocol, so that the records, which summarise themselves, and the statistics do not
    import each other.
    """

    @property
    def status(self) -> str:
        """``passed``, ``failed`` or ``error``."""
        ...

    @property
    def passed(self) -> bool:
        """Whether the task was solved."""
        ...

    @property
    def steps(self) -> int:
        """Steps taken."""
        ...

    @property
    def format_errors(self) -> int:
        """Steps whose output could not be used."""
        ...

    @property
    def tool_errors(self) -> int:
        """Tool calls that failed."""
        ...

    @property
    def input_tokens(self) -> int:
        """Prompt tokens over the run's model calls."""
        ...

    @property
    def output_tokens(self) -> int:
        """Generated tokens over the run's model calls."""
        ...

    @property
    def tokens_reported(self) -> bool:
        """Whether the back end reported token counts."""
        ...

    @property
    def seconds(self) -> float:
        """Wall time of the run."""
        ...


Z_95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a success rate.

    Unlike the normal approximation it stays within [0, 1] and is sensible for small samples
    and for rates near 0 or 1 (0 of 10 gives about 0-28%, not 0-0%).

    Args:
        successes: Runs that succeeded.
        trials: Runs.
        z: The normal quantile (1.96 for 95%).

    Returns:
        ``(low, high)`` as fractions; ``(0.0, 1.0)`` when there was no trial.

    Raises:
        ValueError: When the counts are negative or ``successes > trials``.
    """
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"expected 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return 0.0, 1.0
    rate = successes / trials
    z2 = z * z
    centre = (rate + z2 / (2 * trials)) / (1 + z2 / trials)
    margin = z * math.sqrt(rate * (1 - rate) / trials + z2 / (4 * trials * trials))
    margin /= 1 + z2 / trials
    return max(0.0, centre - margin), min(1.0, centre + margin)


@dataclass(frozen=True)
class ConfigurationSummary:
    """One configuration's row of the results table.

    Rates and means are over the runs that ran (``errors`` excluded: a back end that failed
    says nothing about the agent).

    Attributes:
        label: The configuration's label.
        runs: Runs that ran.
        passed: Runs that solved their task.
        errors: Runs that could not run.
        rate: ``passed / runs`` (``None`` when nothing ran).
        low: Lower bound of the 95% Wilson interval.
        high: Upper bound of the 95% Wilson interval.
        mean_steps: Mean steps per run.
        format_errors: Unusable outputs over every run.
        tool_errors: Failed tool calls over every run.
        input_tokens: Prompt tokens over every run.
        output_tokens: Generated tokens over every run.
        tokens_reported: Whether any run's back end reported token counts (otherwise the
            counts are unknown, not zero).
        median_solved_seconds: Median wall time of the solved runs (``None`` when none).
    """

    label: str
    runs: int
    passed: int
    errors: int
    rate: float | None
    low: float
    high: float
    mean_steps: float | None
    format_errors: int
    tool_errors: int
    input_tokens: int
    output_tokens: int
    median_solved_seconds: float | None
    tokens_reported: bool = True

    def mean_tokens(self) -> tuple[float | None, float | None]:
        """Mean prompt and generated tokens per run (``None`` when nothing ran or no token
        counts were reported).
        """
        if not self.runs or not self.tokens_reported:
            return None, None
        return self.input_tokens / self.runs, self.output_tokens / self.runs

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        mean_in, mean_out = self.mean_tokens()
        return {
            "configuration": self.label,
            "runs": self.runs,
            "passed": self.passed,
            "errors": self.errors,
            "success_rate": self.rate,
            "ci95": [self.low, self.high],
            "mean_steps": self.mean_steps,
            "format_errors": self.format_errors,
            "tool_errors": self.tool_errors,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "tokens_reported": self.tokens_reported,
            "mean_input_tokens": mean_in,
            "mean_output_tokens": mean_out,
            "median_solved_seconds": self.median_solved_seconds,
        }


def summarise(label: str, records: Sequence[RunOutcome]) -> ConfigurationSummary:
    """Summarise one configuration's runs."""
    ran = [record for record in records if record.status != "error"]
    passed = [record for record in ran if record.passed]
    low, high = wilson_interval(len(passed), len(ran))
    return ConfigurationSummary(
        label=label,
        runs=len(ran),
        passed=len(passed),
        errors=len(records) - len(ran),
        rate=len(passed) / len(ran) if ran else None,
        low=low,
        high=high,
        mean_steps=statistics.fmean(record.steps for record in ran) if ran else None,
        format_errors=sum(record.format_errors for record in ran),
        tool_errors=sum(record.tool_errors for record in ran),
        input_tokens=sum(record.input_tokens for record in ran),
        output_tokens=sum(record.output_tokens for record in ran),
        median_solved_seconds=(
            statistics.median(record.seconds for record in passed) if passed else None
        ),
        tokens_reported=any(record.tokens_reported for record in ran),
    )
