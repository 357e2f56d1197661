"""``gent run [CONFIG] TASK``: run an agent on a task, with a live view.

Without CONFIG, ``./gent.yaml`` is used if it exists, else the built-in agent; flags change any
key of the config (see :mod:`gent_core._cli.agentconfig`).

Exit codes: 0 the agent answered; 1 the run stopped without an answer (a limit, a model
failure, cancelled); 2 bad usage or a bad config; 130 interrupted.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from gent_core._cli.agentconfig import (
    LOCAL_CONFIG,
    add_agent_arguments,
    default_agent_help,
    load_agent_config,
    recorded_agent_config,
    split_config_and_task,
)
from gent_core._cli.errors import UsageError
from gent_core._cli.helpformat import HelpFormatter
from gent_core._cli.output import Output
from gent_core._cli.taskinput import STDIN_TASK, read_task, stdin_has_input
from gent_core._serialize import to_json_data, write_json
from gent_core.errors import GentError

if TYPE_CHECKING:
    from gent_core._agent import RunResult
    from gent_core.toolchain import ToolCall

__all__ = ["INTERMIXED_POSITIONALS", "add_arguments", "print_answer", "run", "terminal_asker"]

COMMAND = "gent run"

INTERMIXED_POSITIONALS = "arguments"
"""CONFIG and TASK may stand on either side of options (``gent run agent.yaml -m x TASK``)."""

_DESCRIPTION = f"""\
Run an agent on TASK and show it work: its thinking and text as they stream, each tool call
and result, the answer.

The agent's config is CONFIG (or --config FILE); without one, with --resume the configuration
the transcript recorded (secrets masked in it are read again from the config file it names);
else ./{LOCAL_CONFIG} if it exists; else the built-in agent:

{{default_agent}}

Flags change any key of that config, in the order given (-m, --format, --toolchain, -T,
--no-tools, -o KEY=VALUE, -s TEXT, --cwd DIR). A single argument is the task, unless it is an
existing .yaml/.yml file (then it is the config). The task is read from standard input when it
is - or when none is given and something is piped in (at most GENT_MAX_TASK_SIZE, 4 MiB).

exit codes: 0 the agent answered; 1 it stopped without an answer (a limit, a model failure);
2 bad usage or config; 130 interrupted."""

_EXAMPLES = """\
examples:
  gent run "What is 17 * 23?"                       # the built-in agent (or ./gent.yaml)
  gent run agent.yaml "What is 17 * 23?"            # an agent config file
  gent run -m openai -o model.base_url=http://127.0.0.1:8080/v1 "What time is it?"
  gent run --no-tools -T calculator -o max_steps=4 --format markdown "What is 2**10?"
  gent run -q "What is 17 * 23?"                    # print only the answer
  echo "What is 17 * 23?" | gent run agent.yaml     # the task from standard input (or -)
  gent run -s "Answer in French." --cwd ~/notes "What do my notes say?"
  gent run agent.yaml "Long task" --transcript run.jsonl   # then: --resume run.jsonl
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``gent run``."""
    parser.description = _DESCRIPTION.format(default_agent=default_agent_help())
    parser.epilog = _EXAMPLES
    parser.formatter_class = HelpFormatter
    parser.usage = "%(prog)s [options] [CONFIG] TASK"
    parser.add_argument(
        "arguments",
        metavar="[CONFIG] TASK",
        nargs="*",
        help="the agent's YAML config file (optional), and what to do (omit with --resume; "
        "- or nothing reads it from standard input)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object at the end (answer, stop_reason, steps, stats) instead of "
        "the live view",
    )
    parser.add_argument(
        "--transcript",
        metavar="PATH",
        help="record the run in this JSONL file, step by step (a new or empty file: one run "
        "per file)",
    )
    parser.add_argument(
        "--resume",
        metavar="PATH",
        help="continue the interrupted run recorded in this transcript (appending to it), "
        "with the configuration it recorded unless CONFIG is given",
    )
    add_agent_arguments(parser)


def terminal_asker(output: Output) -> Callable[[ToolCall], bool]:
    """Ask on the terminal whether a tool call may run (the approval policy's 'ask')."""

    def ask(call: ToolCall) -> bool:
        if not sys.stdin.isatty():
            return False
        output.write(f"Allow {call.tool} {write_json(call.args)}? [y/N] ")
        reply = input()
        return reply.strip().lower() in {"y", "yes"}

    return ask


def print_answer(result: RunResult, output: Output, command: str = COMMAND) -> None:
    """``--quiet``: the answer alone on stdout (JSON when it is not text), exactly as the agent
    gave it (never redacted), or why there is none on stderr (``gent chat -q`` too).
    """
    if result.ok:
        answer = result.answer
        text = answer if isinstance(answer, str) else write_json(to_json_data(answer))
        output.line(text, redact=False)
    else:
        output.line(f"{command}: {result.stop_reason}: {result.message}", err=True)


def run(args: argparse.Namespace) -> int:
    """Run the agent; print the live view, the JSON result, or (``-q``) the answer alone.

    Everything printed goes through one :class:`~gent_core._cli.output.Output` holding the
    config's redactor, so secrets are masked on every path (live view, ``--json``, errors)
    and control characters written by a model or a tool are shown as escapes. The task and
    the answer are the user's own text and are shown exactly as written
    (:func:`~gent_core._agent.records.redact_record` for ``--json``).
    """
    from gent_core._agent import Agent
    from gent_core._agent.records import redact_record
    from gent_core._cli.live import LiveView
    from gent_core._cli.logs import redact_logs_with

    output = Output()
    try:
        config_file, task = split_config_and_task(args.arguments, args.config_file)
        if task == STDIN_TASK or (task is None and args.resume is None and stdin_has_input()):
            task = read_task()
        if task is None and args.resume is None:
            understood = f"understood {config_file!r} as the config file; " if config_file else ""
            raise UsageError(f'{understood}the TASK is missing: {COMMAND} [CONFIG] "TASK"')
        if task is not None and args.resume is not None:
            raise UsageError("give a TASK, or --resume TRANSCRIPT (not both)")
        if args.resume is not None and config_file is None:
            loaded = recorded_agent_config(args.resume, args)
        else:
            loaded = load_agent_config(config_file, args)
        output = Output(loaded.redactor)
        redact_logs_with(loaded.redactor)
        agent = Agent.from_config(loaded, ask_callback=terminal_asker(output))
    except GentError as error:
        output.failure(COMMAND, error)
        return 2
    quiet = getattr(args, "verbosity", 0) < 0
    view = (
        None
        if args.json or quiet
        else LiveView(color=None if not args.no_color else False, redactor=loaded.redactor)
    )

    async def run_and_close() -> RunResult:
        # One event loop for the whole life of the agent: toolsets (MCP servers) are opened
        # and stopped in it, also on Ctrl-C.
        try:
            if args.resume:
                return await agent.resume(args.resume, on_event=view)
            assert task is not None
            return await agent.run(task, on_event=view, transcript=args.transcript)
        finally:
            await agent.aclose()

    from gent_core._cli.interrupt import run_command  # asyncio: only when a run starts

    try:
        result = run_command(run_and_close())
    except GentError as error:
        output.failure(COMMAND, error)
        return 2
    except KeyboardInterrupt:
        where = args.resume or args.transcript
        again = f"{COMMAND} {config_file} " if config_file else f"{COMMAND} "
        hint = f"; continue with: {again}--resume {where} (and the same flags)" if where else ""
        output.write(f"\n{COMMAND}: interrupted{hint}\n", err=True)
        return 130
    if args.json:
        output.json(redact_record(result.to_dict(), output.redact), redact=False)
    elif quiet:
        print_answer(result, output)
    return 0 if result.ok else 1
