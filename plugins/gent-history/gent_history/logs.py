"""``gent logs``: the run history — list and search logged runs, show one, where it lives,
switch logging off and on.

``gent logs`` lists the newest runs (``-n``), found by full-text search over tasks and answers
(``-q``), by configuration (``--config``) or failed (``--failed``); ``gent logs show ID`` shows
one run step by step; ``gent logs path`` prints the database's path; ``gent logs off`` and
``gent logs on`` switch logging off and on. ``--json`` prints strict JSON.

The database holds secrets already masked (the recorder redacts them before writing); tasks
and answers are printed exactly as written, with control characters shown as escapes
(:class:`~gent_core.cliframe.Output`), like everything else.

Exit codes: 0; 2 for a bad argument, an unknown run id or a database that cannot be read.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from gent_core.cliframe import HelpFormatter, Output
from gent_core.errors import GentError

if TYPE_CHECKING:
    from gent_history.store import HistoryStore, RunSummary

__all__ = ["DEFAULT_COUNT", "MAX_COUNT", "add_arguments", "run"]

COMMAND = "gent logs"

DEFAULT_COUNT = 10
"""How many runs ``gent logs`` lists without ``-n``."""

_EXAMPLES = """\
examples:
  gent logs                          # the 10 newest runs
  gent logs -n 0 --failed            # every run that did not answer
  gent logs -q "invoice total"       # runs whose task or answer holds both words
  gent logs --config agent --json    # runs of agent.yaml, as JSON
  gent logs show 01JC3Q              # one run step by step (a start of its id is enough)
  gent logs path                     # where the database is (GENT_HOME moves it)
  gent logs off                      # stop logging (gent logs on to start again)
"""


MAX_COUNT = 1_000_000
"""The largest ``-n`` (``-n 0`` lists every run)."""


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= MAX_COUNT:
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise argparse.ArgumentTypeError(
            f"expected a whole number of runs from 0 to {MAX_COUNT:,} (0 for all), got {shown!r}"
        )
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``gent logs`` and its subcommands."""
    parser.usage = (
        "%(prog)s [-n N] [-q TEXT] [--config NAME] [--failed] [--json] | show ID | path | off | on"
    )
    parser.description = "List, search and show the logged runs of gent run and gent chat."
    parser.epilog = _EXAMPLES
    parser.formatter_class = HelpFormatter
    parser.add_argument(
        "-n",
        "--count",
        type=_count,
        default=DEFAULT_COUNT,
        metavar="N",
        help=f"how many runs, newest first (default {DEFAULT_COUNT}; 0 for all; at most "
        f"{MAX_COUNT:,})",
    )
    parser.add_argument(
        "-q",
        "--query",
        metavar="TEXT",
        help="only runs whose task or answer contains every word of TEXT (full-text search)",
    )
    parser.add_argument(
        "--config",
        metavar="NAME",
        help="only runs of this config: its path as logged, file name, or name without .yaml "
        "(built-in for the built-in agent)",
    )
    parser.add_argument("--failed", action="store_true", help="only runs that did not answer")
    parser.add_argument(
        "--json", action="store_true", default=False, help="print strict JSON instead of text"
    )
    commands = parser.add_subparsers(dest="logs_command", metavar="{show,path,off,on}")
    show = commands.add_parser(
        "show",
        help="one logged run, step by step",
        description="Show one logged run: its task, configuration, every step with its tool "
        "calls, and its end.",
    )
    show.add_argument("run_id", metavar="ID", help="the run's id, or enough of its start")
    show.add_argument(
        "--json",
        action="store_true",
        default=argparse.SUPPRESS,
        help="print the run and its records as strict JSON",
    )
    commands.add_parser("path", help="print the history database's path")
    commands.add_parser("off", help="stop logging runs")
    commands.add_parser("on", help="log runs again (the default)")


# --------------------------------------------------------------------------- text


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} s"


def _tokens(run: RunSummary) -> str:
    if run.input_tokens is None and run.output_tokens is None:
        return "tokens not reported"
    return f"tokens {run.input_tokens or 0} in / {run.output_tokens or 0} out"


def _headline(run: RunSummary) -> str:
    steps = f"{run.steps} step" + ("" if run.steps == 1 else "s")
    status = run.stop_reason or "not finished"
    return (
        f"{run.id}  {run.started}  {run.config_name}  {status}  {steps}  "
        f"{_seconds(run.seconds)}  {_tokens(run)}"
    )


def _print_run(run: RunSummary, output: Output) -> None:
    output.line(_headline(run))
    output.line(f"Task: {run.task}", redact=False)
    if run.answer is not None:
        output.line(f"Answer: {run.answer}", redact=False)
    elif run.message:
        output.line(f"Stopped: {run.message}")


def _list(store: HistoryStore, args: argparse.Namespace, output: Output) -> int:
    def skipped(error: GentError) -> None:  # a damaged row: one line, and the others shown
        output.line(f"{COMMAND}: skipped: {error.message}", err=True)

    runs = store.list_runs(
        limit=args.count or None,
        query=args.query,
        config=args.config,
        failed=args.failed,
        on_damaged=skipped,
    )
    if args.json:
        output.json([run.to_dict() for run in runs], redact=False)
        return 0
    if not runs:
        filtered = args.query is not None or args.config is not None or args.failed
        output.line("No logged run matches." if filtered else "No runs are logged yet.")
        return 0
    for number, run in enumerate(runs):
        if number:
            output.line()
        _print_run(run, output)
    return 0


def _call_line(call: dict[str, Any]) -> str:
    from gent_core.bounds import write_json

    status = call.get("status", "")
    result = call.get("error") if status == "error" else write_json(call.get("output"))
    return f"  call {call.get('tool', '')} {write_json(call.get('args', {}))} -> {status}: {result}"


def _print_records(records: list[dict[str, Any]], output: Output) -> None:
    for record in records:
        kind = record.get("type")
        if kind == "resume":
            output.line(f"\n(resumed after step {record.get('after_step')})")
        elif kind == "step":
            model = record.get("model") or {}
            tokens = ""
            if isinstance(model, dict) and model.get("output_tokens") is not None:
                tokens = f", {model.get('input_tokens')} in / {model.get('output_tokens')} out"
            output.line(f"\nStep {record.get('index')} ({record.get('outcome')}{tokens})")
            output.line(str(record.get("output", "")).rstrip("\n"))
            calls = record.get("calls")
            for call in calls if isinstance(calls, list) else []:
                if isinstance(call, dict):
                    output.line(_call_line(call))
            if record.get("feedback"):
                output.line(f"  feedback: {record.get('feedback')}")


def _show(store: HistoryStore, args: argparse.Namespace, output: Output) -> int:
    run = store.get_run(args.run_id)
    records = store.records(run.id)
    if getattr(args, "json", False):
        output.json({"run": run.to_dict(), "records": records}, redact=False)
        return 0
    output.line(f"Run {run.id}  started {run.started}")
    output.line(f"Config: {run.config_name}")
    if run.conversation_id != run.id:
        output.line(f"Conversation: {run.conversation_id}")
    if run.resumed_from:
        output.line(f"Resumed from: {run.resumed_from}")
    output.line(f"Task: {run.task}", redact=False)
    _print_records(records, output)
    output.line()
    if run.answer is not None:
        output.line(f"Answer: {run.answer}", redact=False)
    status = run.stop_reason or "not finished (the process ended during the run)"
    message = f" ({run.message})" if run.message and run.stop_reason != "answer" else ""
    output.line(
        f"Stop: {status}{message}; {run.steps} steps; {_seconds(run.seconds)}; {_tokens(run)}"
    )
    return 0


# --------------------------------------------------------------------------- command


def _switch(on: bool, output: Output) -> int:
    from gent_history.paths import OFF_MARKER, data_dir

    marker = data_dir() / OFF_MARKER
    try:
        if on:
            marker.unlink(missing_ok=True)
        else:
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.touch()
    except OSError as error:
        output.error(
            COMMAND,
            f"cannot {'remove' if on else 'create'} {marker}: {error.strerror or error}",
        )
        return 2
    output.line("Logging is on." if on else "Logging is off (gent logs on starts it again).")
    return 0


def run(args: argparse.Namespace) -> int:
    """List or search runs, show one, print the path, or switch logging off or on."""
    from gent_history.paths import database_path, logging_enabled

    output = Output()
    command = args.logs_command
    if command == "path":
        output.line(str(database_path()))
        return 0
    if command in ("on", "off"):
        return _switch(command == "on", output)
    name = f"{COMMAND} show" if command == "show" else COMMAND
    path = database_path()
    try:
        missing = not path.exists()
        enabled = logging_enabled()
    except OSError as error:
        output.error(name, f"cannot read {path.parent}: {error.strerror or error}")
        return 2
    if missing:
        if command == "show":
            output.error(name, f"no logged run has the id {args.run_id!r}: nothing is logged yet")
            return 2
        if args.json:
            output.json([], redact=False)
        else:
            output.line("No runs are logged yet.")
        return 0
    if not enabled and not args.json:
        output.line("(logging is off: gent logs on starts it again)", err=True)
    from gent_history.store import HistoryStore

    try:
        with HistoryStore(path) as store:
            return _show(store, args, output) if command == "show" else _list(store, args, output)
    except GentError as error:
        output.failure(name, error)
        return 2
