"""Success rates, Wilson intervals and the per-configuration summary."""

from __future__ import annotations

import pytest
from gent_eval.records import RunRecord
from gent_eval.report import COLUMNS, summary_rows
from gent_eval.stats import summarise, wilson_interval


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        (0, 10, 0.0, 0.2775),
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
        (4, 20, 0.0807, 0.4160),
        (1, 1, 0.2065, 1.0),
    ],
)
def test_wilson_interval_known_values(successes: int, trials: int, low: float, high: float) -> None:
    got = wilson_interval(successes, trials)
    assert got == pytest.approx((low, high), abs=5e-4)


def test_wilson_interval_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="0 <= successes <= trials"):
        wilson_interval(3, 2)
    narrow = wilson_interval(500, 1000)
    wide = wilson_interval(5, 10)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]


def run(status: str, **values: object) -> RunRecord:
    values.setdefault("tokens_reported", True)
    return RunRecord("c", "t", 1, status, **values)  # type: ignore[arg-type]


def test_summary_counts_excludes_runs_that_could_not_run() -> None:
    records = [
        run("passed", steps=2, seconds=3.0, input_tokens=100, output_tokens=10, tool_errors=0),
        run("passed", steps=4, seconds=1.0, input_tokens=300, output_tokens=30, format_errors=1),
        run("passed", steps=3, seconds=2.0, input_tokens=200, output_tokens=20),
        run(
            "failed",
            steps=6,
            seconds=9.0,
            input_tokens=400,
            output_tokens=40,
            tool_errors=2,
            format_errors=3,
        ),
        run("error", steps=1, seconds=50.0, input_tokens=999, output_tokens=999),
    ]
    summary = summarise("c", records)
    assert (summary.runs, summary.passed, summary.errors) == (4, 3, 1)
    assert summary.rate == 0.75
    assert (summary.low, summary.high) == pytest.approx(wilson_interval(3, 4))
    assert summary.mean_steps == pytest.approx(15 / 4)
    assert (summary.format_errors, summary.tool_errors) == (4, 2)
    assert (summary.input_tokens, summary.output_tokens) == (1000, 100)
    assert summary.mean_tokens() == (250.0, 25.0)
    assert summary.median_solved_seconds == 2.0  # solved runs only


def test_tokens_no_back_end_reported_are_unknown_not_zero() -> None:
    summary = summarise("c", [run("passed", steps=2, tokens_reported=False)] * 3)
    assert not summary.tokens_reported
    assert summary.mean_tokens() == (None, None)
    assert summary.to_dict()["tokens_reported"] is False
    assert summary_rows([summary])[0][COLUMNS.index("tokens in/out per run")] == "not reported"
    # one run that reported is enough to show the counts
    mixed = summarise("c", [run("passed", input_tokens=90), run("passed", tokens_reported=False)])
    assert mixed.mean_tokens() == (45.0, 0.0)


def test_summary_of_nothing() -> None:
    summary = summarise("c", [run("error")])
    assert (summary.runs, summary.rate, summary.mean_steps, summary.median_solved_seconds) == (
        0,
        None,
        None,
        None,
    )
    assert summary.to_dict()["ci95"] == [0.0, 1.0]
