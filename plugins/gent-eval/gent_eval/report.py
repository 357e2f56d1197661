"""Reports of an evaluation: the results table, Markdown (with a bar chart) and JSON.

The chart needs matplotlib (``pip install 'gent-eval[report]'``); without it the Markdown report
is written without the image and the caller is told why.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from gent_core.records import format_tokens
from gent_eval.records import EvalResult, RunRecord
from gent_eval.stats import ConfigurationSummary

__all__ = [
    "COLUMNS",
    "ReportFormat",
    "markdown_report",
    "report_format",
    "summary_rows",
    "write_chart",
    "write_report",
]

ReportFormat = Literal["markdown", "json"]

COLUMNS = (
    "configuration",
    "success",
    "95% CI",
    "mean steps",
    "format errors",
    "tool errors",
    "tokens in/out per run",
    "median s per solved",
    "could not run",
)
"""The columns of the results table, one row per configuration."""


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.0f}%"


def summary_rows(summaries: Sequence[ConfigurationSummary]) -> list[list[str]]:
    """The results table's rows (see :data:`COLUMNS`), as text."""
    rows = []
    for summary in summaries:
        mean_in, mean_out = summary.mean_tokens()
        tokens = (
            format_tokens(mean_in, mean_out, reported=summary.tokens_reported)
            if summary.runs
            else "-"
        )
        rows.append(
            [
                summary.label,
                f"{_percent(summary.rate)} ({summary.passed}/{summary.runs})",
                f"{_percent(summary.low)}-{_percent(summary.high)}" if summary.runs else "-",
                "-" if summary.mean_steps is None else f"{summary.mean_steps:.2f}",
                str(summary.format_errors),
                str(summary.tool_errors),
                tokens,
                "-"
                if summary.median_solved_seconds is None
                else f"{summary.median_solved_seconds:.2f}",
                str(summary.errors),
            ]
        )
    return rows


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

    return "\n".join([line(header), line(["---"] * len(header)), *map(line, rows)])


def _duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{seconds:.1f} s"


def _failure_line(record: RunRecord, base: Path | None) -> str:
    reason = " ".join(record.failure().split())
    if len(reason) > 300:
        reason = reason[:300] + "..."
    where = ""
    if record.transcript:
        shown = record.transcript
        if base is not None:
            with contextlib.suppress(ValueError):  # another drive (Windows)
                shown = os.path.relpath(record.transcript, base)
        where = f" ([transcript]({Path(shown).as_posix()}))"
    status = "could not run" if record.status == "error" else "failed"
    return (
        f"- `{record.configuration}` / `{record.task}` #{record.repeat} {status}: {reason}{where}"
    )


def markdown_report(
    result: EvalResult, *, chart: str | None = None, base: Path | None = None
) -> str:
    """The Markdown report: settings, the table, the chart, per-task results, failures.

    Args:
        result: The evaluation.
        chart: The chart image's path relative to the report, if one was written.
        base: The report's folder, to link transcripts relatively.
    """
    summaries = result.summaries()
    suite = f"`{result.suite_path}`" if result.suite_path else result.suite
    lines = [
        f"# gent eval: {result.suite}",
        "",
        f"Suite {suite} ({len(result.tasks)} tasks), {len(result.configurations)} "
        f"configuration(s), {result.repeat} run(s) per task, concurrency {result.concurrency}; "
        f"started {result.started}, took {_duration(result.seconds)}."
        + ("" if result.complete else " **Interrupted: the figures cover the runs that ended.**"),
        "",
    ]
    if chart:
        lines += [f"![Success rate per configuration]({chart})", ""]
    lines += [_table(COLUMNS, summary_rows(summaries)), ""]
    lines += [
        "Success: runs that answered and passed every check, of the runs that ran; the interval "
        "is the 95% Wilson score interval. Format errors: outputs the agent could not use. Tool "
        'errors: tool calls that failed. Tokens: "not reported" when the back end gave no '
        "counts (a server that reports none while streaming: set its `stream: false`). Runs "
        "that could not run (back end failures) are left out of the rates.",
        "",
    ]
    if result.notes:
        lines += ["## Notes", "", *(f"- {note}" for note in result.notes), ""]
    labels = [configuration.label for configuration in result.configurations]
    counts: dict[tuple[str, str], list[int]] = {}
    for record in result.records:
        if record.status == "error":
            continue
        tally = counts.setdefault((record.task, record.configuration), [0, 0])
        tally[0] += record.passed
        tally[1] += 1
    rows = [
        [task, *(_tally(counts.get((task, label))) for label in labels)] for task in result.tasks
    ]
    lines += ["## Per task", "", _table(["task", *labels], rows), ""]
    failures = [record for record in result.records if not record.passed]
    if failures:
        order = {label: index for index, label in enumerate(labels)}
        tasks = {task: index for index, task in enumerate(result.tasks)}
        failures.sort(key=lambda r: (order.get(r.configuration, 0), tasks.get(r.task, 0), r.repeat))
        lines += ["## Failures", "", *(_failure_line(record, base) for record in failures), ""]
    if result.transcripts:
        lines += [f"Transcripts: `{result.transcripts}`", ""]
    return "\n".join(lines)


def _tally(pair: list[int] | None) -> str:
    return "-" if pair is None else f"{pair[0]}/{pair[1]}"


def write_chart(summaries: Sequence[ConfigurationSummary], path: Path, title: str) -> str | None:
    """Draw a horizontal bar chart of the success rates (with their intervals) as a PNG.

    Returns:
        ``None`` when written, else why not (matplotlib missing).
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return (
            "the chart was not drawn: matplotlib is not installed (pip install 'gent-eval[report]')"
        )
    shown = [summary for summary in summaries if summary.rate is not None]
    labels = [
        f"{summary.label}\n{100 * (summary.rate or 0.0):.0f}% ({summary.passed}/{summary.runs})"
        for summary in shown
    ]
    rates = [100 * (summary.rate or 0.0) for summary in shown]
    below = [rate - 100 * summary.low for rate, summary in zip(rates, shown, strict=True)]
    above = [100 * summary.high - rate for rate, summary in zip(rates, shown, strict=True)]
    height = 1.4 + 0.6 * max(len(shown), 1)
    figure, axes = plt.subplots(figsize=(8, height))
    try:
        positions = list(range(len(shown)))[::-1]
        axes.barh(positions, rates, xerr=[below, above], color="#4C72B0", capsize=4)
        axes.set_yticks(positions, labels, fontsize=8)
        axes.set_xlim(0, 100)
        axes.set_xlabel("success rate (%), with its 95% Wilson interval")
        axes.set_title(title)
        axes.grid(axis="x", alpha=0.3)
        figure.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(path, dpi=110)
    finally:
        plt.close(figure)
    return None


def report_format(path: Path, explicit: ReportFormat | None = None) -> ReportFormat:
    """The report's format: ``explicit``, else from the extension (``.json`` -> JSON).

    Raises:
        ValueError: When the extension is neither Markdown nor JSON and no format is given.
    """
    if explicit is not None:
        return explicit
    suffix = path.suffix.lower()
    if suffix == ".json":
        return "json"
    if suffix in (".md", ".markdown"):
        return "markdown"
    raise ValueError(
        f"cannot tell the report format from {path.name!r}: name it .md or .json, "
        "or give --report-format"
    )


def write_report(result: EvalResult, path: Path, format: ReportFormat | None = None) -> list[str]:
    """Write the report (and, for Markdown, the chart ``<name>.png`` next to it).

    Returns:
        Remarks for the person (a chart that could not be drawn).

    Raises:
        ValueError: See :func:`report_format`.
        OSError: When the file cannot be written.
    """
    kind = report_format(path, format)
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "json":
        path.write_text(json.dumps(result.to_dict(), indent=2, ensure_ascii=False) + "\n")
        return []
    remarks = []
    chart_path = path.with_suffix(".png")
    problem = write_chart(result.summaries(), chart_path, f"gent eval: {result.suite}")
    if problem is not None:
        remarks.append(problem)
    text = markdown_report(
        result, chart=chart_path.name if problem is None else None, base=path.parent
    )
    path.write_text(text, encoding="utf-8")
    return remarks
