"""``gent eval``: run a suite of tasks under one or more agent configurations and compare them.

The suite is a YAML file, or ``PREFIX:SELECTOR`` of a suite source an installed package
registers (``bfcl:simple_python,multiple`` with gent-bfcl; :mod:`gent_eval.sources`).

Exit codes: 0 every run ran (whatever the success rate); 1 some run could not run (the model
back end failed, a run timed out); 2 bad usage, a bad suite or a bad config; 3 every run ran
but a configuration's success rate is below ``--min-success``; 130 interrupted (the table
and the report cover the runs that ended).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gent_core.cliframe import HelpFormatter, run_command
from gent_core.errors import GentError, InputError

if TYPE_CHECKING:
    from gent_eval.configs import Configuration
    from gent_eval.records import EvalResult, RunRecord
    from gent_eval.report import ReportFormat
    from gent_eval.sources import SourceReport, SuiteLoader
    from gent_eval.suite import Suite

__all__ = ["add_arguments", "run"]

EXIT_OK = 0
EXIT_RUN_ERRORS = 1
EXIT_USAGE = 2
EXIT_BELOW_MIN_SUCCESS = 3
EXIT_INTERRUPTED = 130

_DESCRIPTION = """\
Run every task of SUITE (a suite's YAML file, or PREFIX:SELECTOR of an installed suite
source: {sources}) under every CONFIG (crossed with every --matrix combination),
--repeat times each, and print one row per configuration: success rate with its 95% Wilson
interval, mean steps, format and tool errors, tokens, median seconds per solved task.

Without CONFIG the built-in agent is evaluated (a suite's 'tools' replace a config's tools):

{default_agent}

Every run is recorded as a JSONL transcript under --transcripts (default
gent-eval/<suite>-<time>/); runs.jsonl there lists every run with its checks' verdicts.

exit codes: 0 every run ran (whatever the success); 1 some run could not run (back end
failure, --timeout); 2 bad usage, suite or config; 3 a configuration is below
--min-success; 130 interrupted.
"""

_EXAMPLE = """\
examples:
  gent eval evals/basic-tools.yaml                  # the built-in agent
  gent eval evals/basic-tools.yaml --matrix format=xml,markdown \\
      --matrix toolchain=json,yaml --report eval.md
  gent eval evals/basic-tools.yaml agent.yaml other.yaml --repeat 3 --min-success 80%
  gent eval bfcl:simple_python,multiple --every 10 --limit 5 \\
      --matrix toolchain=json,pythonic    # BFCL's tasks (pip install gent-bfcl)
  gent eval bfcl:simple_python agent.yaml --matrix format=xml,markdown \\
      --matrix toolchain=json,pythonic --pick best.yaml   # the winner as a config file
"""


def _default_agent_help() -> str:
    """The built-in agent's config without its comments, indented for the help text."""
    from gent_core.config import default_agent_yaml

    body = [line for line in default_agent_yaml().splitlines() if not line.startswith("#")]
    return "\n".join(f"  {line}" for line in body if line.strip())


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``gent eval``.

    Long because it is a flat table: one ``add_argument`` per option, in the order of the help.
    """
    # The sources are not looked up here: building the parser (gent --help, completion)
    # must not call plugins' hooks.
    sources = "bfcl: with gent-bfcl, for instance"
    parser.description = _DESCRIPTION.format(default_agent=_default_agent_help(), sources=sources)
    parser.epilog = _EXAMPLE
    parser.formatter_class = HelpFormatter
    parser.add_argument(
        "suite",
        metavar="SUITE",
        help="the suite's YAML file, or PREFIX:SELECTOR of an installed suite source",
    )
    parser.add_argument(
        "configs",
        metavar="CONFIG",
        nargs="*",
        help="agent config files to compare (default: the built-in agent described above)",
    )
    parser.add_argument(
        "--matrix",
        metavar="KEY=V1,V2",
        action="append",
        default=[],
        help="evaluate each value of a config key (dotted: model.temperature=0.2,0.7); "
        "several --matrix give every combination",
    )
    parser.add_argument(
        "--repeat",
        metavar="K",
        type=_whole_number(MAX_REPEAT),
        default=1,
        help=f"runs per task (default 1, at most {MAX_REPEAT:,})",
    )
    parser.add_argument(
        "--concurrency",
        metavar="N",
        type=_whole_number(MAX_CONCURRENCY),
        default=1,
        help=f"runs in flight at once (default 1, at most {MAX_CONCURRENCY:,}); a back end "
        "serving one request at a time (the in-process llamacpp model) still runs one at a time",
    )
    parser.add_argument(
        "--report", metavar="FILE", help="write a report: .md (with a .png chart) or .json"
    )
    parser.add_argument(
        "--report-format",
        choices=("markdown", "json"),
        help="the report's format when FILE's extension does not say",
    )
    parser.add_argument(
        "--transcripts",
        metavar="DIR",
        help="where run transcripts go (default gent-eval/<suite>-<time>/)",
    )
    parser.add_argument(
        "--task",
        metavar="PATTERN",
        action="append",
        default=[],
        help="only the tasks whose id matches (shell pattern; repeatable)",
    )
    parser.add_argument(
        "--tag", action="append", default=[], help="only the tasks with this tag (repeatable)"
    )
    parser.add_argument(
        "--every",
        metavar="K",
        type=_whole_number(MAX_COUNT),
        help="keep every K-th task from the first (of each category, for a suite source)",
    )
    parser.add_argument(
        "--limit",
        metavar="N",
        type=_whole_number(MAX_COUNT),
        help="then only the first N tasks (of each category, for a suite source)",
    )
    parser.add_argument(
        "--max-tokens",
        metavar="N",
        type=_whole_number(MAX_COUNT),
        help="tokens one model call may generate (suite sources; default: the back end's)",
    )
    parser.add_argument(
        "--baseline",
        metavar="NAMES",
        type=_names,
        help="suite sources: the baselines run on the first configuration's model beside the "
        "configurations, comma-separated, or none (bfcl: prompt,native, the default)",
    )
    parser.add_argument(
        "--min-success",
        metavar="RATE",
        type=_rate,
        help="exit 3 when a configuration's success rate is below RATE (0.6 or 60%%)",
    )
    parser.add_argument(
        "--timeout",
        metavar="SECONDS",
        type=_seconds,
        help="stop a run after SECONDS and count it as 'could not run' (more than 0, at most "
        f"{MAX_TIMEOUT:,.0f}: a week)",
    )
    parser.add_argument(
        "--pick",
        metavar="FILE",
        help="write the best configuration as a config file, the measured table in its "
        "comments (write it beside the config it comes from)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")


MAX_REPEAT = 10_000
"""The most runs per task ``--repeat`` may ask for."""
MAX_CONCURRENCY = 1_000
"""The most runs in flight at once ``--concurrency`` may ask for."""
MAX_COUNT = 1_000_000_000
"""The largest ``--every``, ``--limit`` and ``--max-tokens``."""
MAX_TIMEOUT = 7 * 24 * 3600.0
"""The longest ``--timeout`` in seconds (a week)."""


def _shown(text: str) -> str:
    return repr(text if len(text) <= 30 else text[:30] + "...")


def _whole_number(maximum: int) -> Callable[[str], int]:
    """An argument type: a whole number from 1 to ``maximum`` (argparse exits 2 otherwise)."""

    def whole_number(text: str) -> int:
        accepted = f"expected a whole number from 1 to {maximum:,}"
        digits = text.strip().lstrip("+")
        if not digits.isdigit() or not digits.isascii():
            raise argparse.ArgumentTypeError(f"{accepted}, got {_shown(text)}")
        # compared as text first: thousands of digits are never turned into an int
        digits = digits.lstrip("0") or "0"
        if len(digits) > len(str(maximum)) or not 1 <= int(digits) <= maximum:
            raise argparse.ArgumentTypeError(f"{accepted}, got {_shown(text)}")
        return int(digits)

    whole_number.__name__ = "whole number"  # argparse names the type in some messages
    return whole_number


def _seconds(text: str) -> float:
    """``--timeout``: seconds, more than 0 and at most :data:`MAX_TIMEOUT`."""
    accepted = f"expected a number of seconds more than 0 and at most {MAX_TIMEOUT:,.0f} (a week)"
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{accepted}, got {_shown(text)}") from None
    if not 0 < value <= MAX_TIMEOUT:  # NaN fails this too
        raise argparse.ArgumentTypeError(f"{accepted}, got {_shown(text)}")
    return value


def _names(text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(","))
    if names == ("none",):
        return ()
    if not all(names) or "none" in names:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated names (prompt,native) or none, got {text!r}"
        )
    return names


def _rate(text: str) -> float:
    try:
        value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a rate such as 0.6 or 60%, got {text!r}"
        ) from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a rate between 0 and 1 (0%-100%), got {text!r}")
    return value


def _error(message: str, cause: BaseException | type[BaseException] | None = None) -> int:
    from gent_core.cliframe import Output, UsageError

    Output().error("gent eval", message, cause=cause if cause is not None else UsageError)
    return EXIT_USAGE


class _Progress:
    """Progress on stderr: a rich progress bar per configuration, or one line each."""

    def __init__(self, enabled: bool, *, no_color: bool = False) -> None:
        from gent_core.cliframe import is_terminal, rich_console

        self.console = rich_console(stderr=True, no_color=no_color)
        self.bars: Any = None
        self.current: Any = None
        self.counts = [0, 0]
        if enabled and is_terminal(sys.stderr):  # animated bars need a real terminal
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            self.bars = Progress(
                TextColumn("{task.description}", markup=False),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("[green]{task.fields[passed]} passed"),
                TimeElapsedColumn(),
                console=self.console,
            )
            self.bars.start()

    def configuration_started(
        self, configuration: Configuration, runs: int, concurrency: int
    ) -> None:
        self.counts = [0, 0]
        if self.bars is not None:
            label = f"{configuration.label} (x{concurrency})" if concurrency > 1 else ""
            self.current = self.bars.add_task(label or configuration.label, total=runs, passed=0)

    def run_finished(self, record: RunRecord) -> None:
        self.counts[0] += 1
        self.counts[1] += record.passed
        if self.bars is not None and self.current is not None:
            self.bars.update(self.current, advance=1, passed=self.counts[1])

    def configuration_finished(self, configuration: Configuration) -> None:
        if self.bars is None:
            print(
                f"{configuration.label}: {self.counts[1]}/{self.counts[0]} passed",
                file=sys.stderr,
                flush=True,
            )

    def note(self, text: str) -> None:
        from rich.text import Text

        self.console.print(Text.assemble(("note: ", "yellow"), text), soft_wrap=True)

    def stop(self) -> None:
        if self.bars is not None:
            self.bars.stop()


def _print_table(result: EvalResult, *, no_color: bool = False) -> None:
    from gent_eval.report import COLUMNS, summary_rows

    _print_rows(
        f"gent eval: {result.suite}", COLUMNS, summary_rows(result.summaries()), no_color=no_color
    )


def _print_rows(
    title: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    no_color: bool = False,
) -> None:
    from rich.table import Table
    from rich.text import Text

    from gent_core.cliframe import is_terminal, rich_console

    width = (
        None if is_terminal(sys.stdout) else max(shutil.get_terminal_size((160, 24)).columns, 160)
    )
    console = rich_console(no_color=no_color, width=width)
    table = Table(title=Text(title), title_justify="left")
    for index, column in enumerate(columns):
        table.add_column(column, justify="left" if index == 0 else "right")
    for row in rows:
        table.add_row(*(Text(str(cell)) for cell in row))
    console.print(table)


def _configurations(args: argparse.Namespace) -> list[Configuration]:
    from gent_core import load_config
    from gent_eval.configs import build_configurations, default_config, parse_assignment

    axes = []
    for text in args.matrix:
        try:
            axes.append(parse_assignment(text))
        except (ValueError, InputError) as error:
            raise _Usage(f"--matrix: {error}") from None
    keys = [key for key, _ in axes]
    if len(set(keys)) < len(keys):
        raise _Usage("--matrix: a key is given twice; list every value in one --matrix")
    sources = args.configs or ["<default agent>"]
    loaded = [load_config(path) for path in args.configs] if args.configs else [default_config()]
    return build_configurations(list(zip(sources, loaded, strict=True)), axes)


class _Usage(Exception):
    """A usage problem found while preparing the evaluation."""


def run(args: argparse.Namespace) -> int:
    """Run the evaluation; print the table; write the report."""
    report = Path(args.report) if args.report else None
    if report is not None:
        from gent_eval.report import report_format

        try:
            report_format(report, args.report_format)
        except ValueError as error:
            return _error(str(error))
    try:
        source = _source(args.suite)
    except _Usage as error:
        return _error(str(error))
    if source is not None:
        return _run_source(args, *source, report)
    return _run_suite_file(args, report)


def _run_suite_file(args: argparse.Namespace, report: Path | None) -> int:
    """Run a suite file's evaluation; print its table; write its report and its pick."""
    from gent_eval.runner import slug

    try:
        suite = _suite(args)
        configurations = _configurations(args)
    except _Usage as error:
        return _error(str(error))
    except GentError as error:
        return _error(str(error), error)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    transcripts = Path(args.transcripts or Path("gent-eval") / f"{slug(suite.name)}-{stamp}")
    try:
        result, interrupted = _run_with_progress(args, suite, configurations, transcripts)
    except GentError as error:
        return _error(str(error), error)
    _print_table(result, no_color=args.no_color)
    failed = sum(1 for record in result.records if record.status == "failed")
    print(
        f"{len(result.records)} runs, {failed} failed, {len(result.errors)} could not run; "
        f"transcripts in {transcripts}",
        file=sys.stderr,
    )
    if report is not None and not _write_suite_report(result, report, args.report_format):
        return EXIT_RUN_ERRORS
    if interrupted:
        print("gent eval: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    if args.pick and not _pick_from_suite(args.pick, configurations, result, suite.name):
        return EXIT_RUN_ERRORS
    return exit_code(result, args.min_success)


def _suite(args: argparse.Namespace) -> Suite:
    """The suite file's tasks that ``--task``, ``--tag``, ``--every`` and ``--limit`` select.

    Raises:
        _Usage: An option for suite sources only was given, or no task is selected.
        GentError: The suite file is missing or invalid.
    """
    from gent_eval.loading import load_suite

    if args.max_tokens is not None:
        raise _Usage("--max-tokens applies to suite sources (PREFIX:SELECTOR) only")
    if args.baseline is not None:
        raise _Usage("--baseline applies to suite sources (PREFIX:SELECTOR) only")
    suite = load_suite(args.suite).select(args.task, args.tag).every(args.every, args.limit)
    if not suite.tasks:
        raise _Usage(f"no task of {args.suite} matches --task/--tag/--every/--limit")
    return suite


def _run_with_progress(
    args: argparse.Namespace,
    suite: Suite,
    configurations: Sequence[Configuration],
    transcripts: Path,
) -> tuple[EvalResult, bool]:
    """Run every task under every configuration with progress on stderr: the result, and
    whether Ctrl-C stopped the runs (the result then covers the runs that ended).

    Raises:
        GentError: The runs could not start or go on.
    """
    from gent_eval.runner import EvalRunner

    progress = _Progress(
        enabled=not args.no_progress and args.verbosity >= 0, no_color=args.no_color
    )
    runner = EvalRunner(
        suite,
        configurations,
        repeat=args.repeat,
        concurrency=args.concurrency,
        transcripts=transcripts,
        run_timeout=args.timeout,
        listener=progress,
    )
    try:
        return run_command(runner.run()), False
    except KeyboardInterrupt:
        return runner.result(), True
    finally:
        progress.stop()


def _write_suite_report(
    result: EvalResult, report: Path, report_format: ReportFormat | None
) -> bool:
    """Write a suite file's report (:mod:`gent_eval.report`); whether it was."""
    from gent_eval.report import write_report

    try:
        for remark in write_report(result, report, report_format):
            print(f"gent eval: {remark}", file=sys.stderr)
    except OSError as error:
        print(f"gent eval: error: cannot write the report: {error}", file=sys.stderr)
        return False
    print(f"report: {report}", file=sys.stderr)
    return True


def _pick_from_suite(
    path: str, configurations: Sequence[Configuration], result: EvalResult, title: str
) -> bool:
    """Write the configuration with the best success rate (then the best lower bound of its
    interval) to ``path``; whether it was.
    """
    from gent_eval.report import COLUMNS, summary_rows

    summaries = result.summaries()
    scores = {
        summary.label: (summary.rate if summary.rate is not None else -1.0, summary.low)
        for summary in summaries
    }
    return _write_pick(path, configurations, scores, title, COLUMNS, summary_rows(summaries))


def _write_pick(
    path: str,
    configurations: Sequence[Configuration],
    scores: Mapping[str, tuple[float, ...]],
    title: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    baselines: Mapping[str, float] | None = None,
) -> bool:
    """Write the best configuration to ``path`` (:mod:`gent_eval.pick`); whether it was.
    ``baselines`` (a suite source's baseline scores, on the scale of the first score) are
    written beside the winner's; a baseline that beat it is said on stderr too.
    """
    from gent_eval.pick import baseline_lines, best, picked_config

    by_label = {configuration.label: configuration for configuration in configurations}
    ranked = {label: score for label, score in scores.items() if label in by_label}
    try:
        label = best(ranked)
        winner, score = by_label[label], ranked[label][0]
        text = picked_config(
            winner,
            title=title,
            columns=columns,
            rows=rows,
            measured=len(configurations),
            baselines=baselines or {},
            score=score,
        )
        Path(path).write_text(text, encoding="utf-8")
    except (OSError, ValueError) as error:
        print(f"gent eval: error: cannot write the picked config: {error}", file=sys.stderr)
        return False
    print(f"picked: {winner.label} -> {path}", file=sys.stderr)
    for line in baseline_lines(label, score, baselines or {}):
        print(f"gent eval: {line}", file=sys.stderr)
    return True


def exit_code(result: EvalResult, min_success: float | None) -> int:
    """The exit code for a finished evaluation (see the module docstring)."""
    if result.errors:
        return EXIT_RUN_ERRORS
    if min_success is not None:
        below = [
            summary
            for summary in result.summaries()
            if summary.rate is None or summary.rate < min_success
        ]
        if below:
            names = ", ".join(repr(summary.label) for summary in below)
            print(f"gent eval: below --min-success {min_success:.0%}: {names}", file=sys.stderr)
            return EXIT_BELOW_MIN_SUCCESS
    return EXIT_OK


_SOURCE = re.compile(r"([a-z][a-z0-9_-]+):(.*)", re.DOTALL)


def _source(suite: str) -> tuple[str, str, SuiteLoader] | None:
    """``(prefix, selector, loader)`` when ``suite`` names a suite source, ``None`` for a
    file (a file of that name wins over a source).
    """
    from gent_core.workspace import probe_path
    from gent_eval.extensions import suite_sources

    match = _SOURCE.fullmatch(suite)
    if match is None or probe_path(suite).exists:
        return None
    prefix, selector = match.groups()
    sources = suite_sources()
    if prefix not in sources:
        if Path(suite).suffix.lower() in (".yaml", ".yml"):
            return None  # a suite file that does not exist: its loader says so
        installed = ", ".join(f"{name}:" for name in sorted(sources)) or "none"
        raise _Usage(
            f"unknown suite source {prefix!r} in {suite!r} (installed sources: {installed}); "
            "SUITE is a suite's YAML file or PREFIX:SELECTOR of an installed source "
            "(gent-bfcl adds bfcl:CATEGORY[,CATEGORY...])"
        )
    if not selector.strip():
        raise _Usage(f"{suite!r}: say what to run after '{prefix}:'")
    return prefix, selector, sources[prefix]


_NOT_FOR_SOURCES = (
    ("task", "--task"),
    ("tag", "--tag"),
    ("min_success", "--min-success"),
    ("timeout", "--timeout"),
    ("transcripts", "--transcripts"),
)


def _run_source(
    args: argparse.Namespace,
    prefix: str,
    selector: str,
    loader: SuiteLoader,
    report: Path | None,
) -> int:
    """Run a suite source's evaluation; print its table; write its report and its pick."""
    from gent_eval.sources import SourceOptions

    options = SourceOptions(
        every=args.every, limit=args.limit, max_tokens=args.max_tokens, baselines=args.baseline
    )
    try:
        _refuse_file_options(args, prefix)
        evaluation = loader(selector, options)
        configurations = _configurations(args)
    except _Usage as error:
        return _error(str(error))
    except GentError as error:
        return _error(str(error), error)
    except Exception as error:  # noqa: BLE001 - a broken source plugin is reported, named
        return _error(f"the suite source {prefix!r} failed: {type(error).__name__}: {error}")
    if evaluation.tasks == 0:
        return _error(f"no task of {prefix}:{selector} is selected (--every/--limit)")
    quiet = args.no_progress or args.verbosity < 0

    def progress(line: str) -> None:
        if not quiet:
            print(line, file=sys.stderr, flush=True)

    try:
        result = run_command(evaluation.run(configurations, progress))
    except GentError as error:
        return _error(str(error), error)
    except KeyboardInterrupt:
        print("gent eval: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    _print_rows(result.title, result.columns, result.rows, no_color=args.no_color)
    for note in result.notes:
        print(note)
    if report is not None and not _write_source_report(result, report, args.report_format):
        return EXIT_RUN_ERRORS
    if args.pick:
        if not result.scores:
            return _error(f"the suite source {prefix!r} gives no scores to pick a winner by")
        scores = {label: (score,) for label, score in result.scores.items()}
        table = (result.columns, result.rows)
        picked = _write_pick(
            args.pick, configurations, scores, evaluation.name, *table, baselines=result.baselines
        )
        if not picked:
            return EXIT_RUN_ERRORS
    return EXIT_OK


def _refuse_file_options(args: argparse.Namespace, prefix: str) -> None:
    """Refuse the options that apply to suite files only.

    Raises:
        _Usage: Naming the first such option given.
    """
    for dest, flag in _NOT_FOR_SOURCES:
        if getattr(args, dest):
            raise _Usage(f"{flag} applies to suite files, not to suite sources ({prefix}:)")
    if args.repeat != 1 or args.concurrency != 1:
        raise _Usage(f"--repeat and --concurrency apply to suite files, not to {prefix}:")


def _write_source_report(
    result: SourceReport, report: Path, report_format: ReportFormat | None
) -> bool:
    """Write a suite source's report: its data as JSON, or its Markdown; whether it was."""
    from gent_eval.report import report_format as format_of

    try:
        if format_of(report, report_format) == "json":
            report.write_text(json.dumps(result.data, indent=2) + "\n", encoding="utf-8")
        else:
            report.write_text(result.markdown(), encoding="utf-8")
    except OSError as error:
        print(f"gent eval: error: cannot write the report: {error}", file=sys.stderr)
        return False
    print(f"report: {report}", file=sys.stderr)
    return True
