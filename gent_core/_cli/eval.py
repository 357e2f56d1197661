"""``gent eval``: run a suite of tasks under one or more agent configurations and compare them.

Exit codes: 0 every run ran (whatever the success rate); 1 some run could not run (the model
back end failed, a run timed out); 2 bad usage, a bad suite or a bad config; 3 every run ran
but a configuration's success rate is below ``--min-success``; 130 interrupted (the table
and the report cover the runs that ended).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gent_core._cli.helpformat import HelpFormatter
from gent_core._cli.interrupt import run_command
from gent_core.errors import GentError, InputError

if TYPE_CHECKING:
    from gent_core._eval.configs import Configuration
    from gent_core._eval.records import EvalResult, RunRecord

__all__ = ["add_arguments", "run"]

EXIT_OK = 0
EXIT_RUN_ERRORS = 1
EXIT_USAGE = 2
EXIT_BELOW_MIN_SUCCESS = 3
EXIT_INTERRUPTED = 130

_DESCRIPTION = """\
Run every task of SUITE under every CONFIG (crossed with every --matrix combination),
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
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``gent eval``."""
    from gent_core._cli.agentconfig import default_agent_help

    parser.description = _DESCRIPTION.format(default_agent=default_agent_help())
    parser.epilog = _EXAMPLE
    parser.formatter_class = HelpFormatter
    parser.add_argument("suite", metavar="SUITE", help="the suite's YAML file")
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
        "--repeat", metavar="K", type=_positive_int, default=1, help="runs per task (default 1)"
    )
    parser.add_argument(
        "--concurrency",
        metavar="N",
        type=_positive_int,
        default=1,
        help="runs in flight at once (default 1); a back end serving one request at a time "
        "(the in-process llamacpp model) still runs one at a time",
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
        "--min-success",
        metavar="RATE",
        type=_rate,
        help="exit 3 when a configuration's success rate is below RATE (0.6 or 60%%)",
    )
    parser.add_argument(
        "--timeout",
        metavar="SECONDS",
        type=float,
        help="stop a run after SECONDS and count it as 'could not run'",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return value


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
    from gent_core._cli.errors import UsageError
    from gent_core._cli.output import Output

    Output().error("gent eval", message, cause=cause if cause is not None else UsageError)
    return EXIT_USAGE


class _Progress:
    """Progress on stderr: a rich progress bar per configuration, or one line each."""

    def __init__(self, enabled: bool, *, no_color: bool = False) -> None:
        from gent_core._cli.colors import is_terminal, rich_console

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
    from rich.table import Table
    from rich.text import Text

    from gent_core._cli.colors import is_terminal, rich_console
    from gent_core._eval.report import COLUMNS, summary_rows

    width = (
        None if is_terminal(sys.stdout) else max(shutil.get_terminal_size((160, 24)).columns, 160)
    )
    console = rich_console(no_color=no_color, width=width)
    table = Table(title=Text(f"gent eval: {result.suite}"), title_justify="left")
    for index, column in enumerate(COLUMNS):
        table.add_column(column, justify="left" if index == 0 else "right")
    for row in summary_rows(result.summaries()):
        table.add_row(*(Text(cell) for cell in row))
    console.print(table)


def _configurations(args: argparse.Namespace) -> list[Configuration]:
    from gent_core._config import load_config
    from gent_core._eval.configs import build_configurations, default_config, parse_assignment

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
    from gent_core._eval.loading import load_suite
    from gent_core._eval.report import write_report
    from gent_core._eval.runner import EvalRunner, slug

    report = Path(args.report) if args.report else None
    if report is not None:
        from gent_core._eval.report import report_format

        try:
            report_format(report, args.report_format)
        except ValueError as error:
            return _error(str(error))
    try:
        suite = load_suite(args.suite).select(args.task, args.tag)
        if not suite.tasks:
            return _error(f"no task of {args.suite} matches --task/--tag")
        configurations = _configurations(args)
    except _Usage as error:
        return _error(str(error))
    except GentError as error:
        return _error(str(error), error)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    transcripts = Path(args.transcripts or Path("gent-eval") / f"{slug(suite.name)}-{stamp}")
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
    interrupted = False
    try:
        result = run_command(runner.run())
    except GentError as error:
        progress.stop()
        return _error(str(error), error)
    except KeyboardInterrupt:
        interrupted = True
        result = runner.result()
    finally:
        progress.stop()
    _print_table(result, no_color=args.no_color)
    failed = sum(1 for record in result.records if record.status == "failed")
    print(
        f"{len(result.records)} runs, {failed} failed, {len(result.errors)} could not run; "
        f"transcripts in {transcripts}",
        file=sys.stderr,
    )
    if report is not None:
        try:
            for remark in write_report(result, report, args.report_format):
                print(f"gent eval: {remark}", file=sys.stderr)
        except OSError as error:
            print(f"gent eval: error: cannot write the report: {error}", file=sys.stderr)
            return EXIT_RUN_ERRORS
        print(f"report: {report}", file=sys.stderr)
    if interrupted:
        print("gent eval: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return exit_code(result, args.min_success)


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
