"""``gent run [CONFIG] TASK``: run an agent on a task, with a live view.

Without CONFIG, ``./gent.yaml`` is used if it exists, else the built-in agent; flags change any
key of the config (see :mod:`gent_core._cli.agentconfig`).

Exit codes: 0 the agent answered; 1 the run stopped without an answer (a limit, a model
failure, cancelled); 2 bad usage or a bad config; 130 interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gent_core._cli.agentconfig import (
    LOCAL_CONFIG,
    add_agent_arguments,
    default_agent_help,
    header_agent_config,
    load_agent_config,
    split_config_and_task,
)
from gent_core._cli.errors import UsageError
from gent_core._cli.helpformat import HelpFormatter
from gent_core._cli.output import Output
from gent_core._cli.taskinput import STDIN_TASK, read_task, stdin_has_input
from gent_core._serialize import to_json_data, write_json
from gent_core.errors import GentError

if TYPE_CHECKING:
    from gent_core._agent import Agent, AgentEvent, RunResult
    from gent_core._config import LoadedConfig
    from gent_core.hookspecs import RunHistory
    from gent_core.messages import Message
    from gent_core.toolchain import ToolCall

__all__ = ["INTERMIXED_POSITIONALS", "add_arguments", "print_answer", "run", "terminal_asker"]

COMMAND = "gent run"


INTERMIXED_POSITIONALS = "arguments"
"""CONFIG and TASK may stand on either side of options (``gent run agent.yaml -m x TASK``)."""

_DESCRIPTION = f"""\
Run an agent on TASK and show it work: its thinking and text as they stream, each tool call
and result, the answer.

The agent's config is CONFIG (or --config FILE); without one, with --resume or --continue
the configuration the run recorded (secrets masked in it are read again from the config file
it names); else ./{LOCAL_CONFIG} if it exists; else the built-in agent:

{{default_agent}}

Flags change any key of that config, in the order given (-m, --format, --toolchain, -T,
--no-tools, -o KEY=VALUE, -s TEXT, --cwd DIR). The tools work in the config file's folder, not
the current directory (--cwd DIR changes it). A single argument is the task, unless it is an
existing .yaml/.yml file (then it is the config). The task is read from standard input when it
is - or when none is given and something is piped in (at most GENT_MAX_TASK_SIZE, 4 MiB).

With gent-history installed (the quick start installs it), every run is logged to its
database (gent logs; --no-log or gent logs off to stop), and --continue and --resume ID
continue logged runs.

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
  gent run -c "And times 2?"                        # continue the last conversation (*)
  gent run --resume 01JC3Q                          # resume an interrupted logged run (*)
  (*) with gent-history, the run history
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
        metavar="PATH|ID",
        help="continue an interrupted run: the one recorded in this transcript (appending to "
        "it), or the logged run with this id (gent logs lists them); with the configuration "
        "it recorded unless CONFIG is given",
    )
    history = parser.add_argument_group("history", "the run history (gent-history: gent logs)")
    history.add_argument(
        "-c",
        "--continue",
        dest="continue_conversation",
        action="store_true",
        help="continue the last logged conversation: its runs are the history of this one, "
        "with the configuration it recorded unless CONFIG is given",
    )
    history.add_argument(
        "--no-log",
        action="store_true",
        help="leave this run out of the history (gent logs off: every run)",
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


@dataclass
class _Plan:
    """What ``gent run`` was asked for, read from the arguments and the run history."""

    config_file: str | None
    task: str | None
    history: RunHistory | None = None
    resume: object | None = None
    messages: list[Message] = field(default_factory=list)
    header: dict[str, Any] | None = None
    header_where: str = ""


def _plan(args: argparse.Namespace) -> _Plan:
    """Read the config file and the task; for ``--resume`` the run to resume, for
    ``--continue`` the conversation to continue (from the run history, when a plugin keeps
    one: :func:`~gent_core._cli.runhistory.resolve_run_history`).

    Raises:
        GentError: Bad usage, an unreadable transcript or history, nothing to continue.
    """
    config_file, task = split_config_and_task(args.arguments, args.config_file)
    resume: str | None = args.resume
    if task == STDIN_TASK or (task is None and resume is None and stdin_has_input()):
        task = read_task()
    if args.continue_conversation and resume is not None:
        raise UsageError("give --continue or --resume, not both")
    if task is None and resume is None:
        understood = f"understood {config_file!r} as the config file; " if config_file else ""
        raise UsageError(f'{understood}the TASK is missing: {COMMAND} [CONFIG] "TASK"')
    if task is not None and resume is not None:
        raise UsageError("give a TASK, or --resume TRANSCRIPT|ID (not both)")
    from gent_core._cli.runhistory import resolve_run_history

    plan = _Plan(config_file, task)
    plan.history = history = resolve_run_history(
        COMMAND,
        resume=resume,
        continue_conversation=args.continue_conversation,
        log=not args.no_log,
    )
    try:
        _earlier_run(plan, resume)
    except BaseException:
        if history is not None:
            history.close()  # lets go of a resumed run's lock
        raise
    return plan


def _earlier_run(plan: _Plan, resume: str | None) -> None:
    """Fill in the run that ``plan`` continues: the logged run or conversation its run
    history resolved, else the transcript file ``--resume`` names.

    Raises:
        GentError: An unreadable transcript.
    """
    history = plan.history
    if history is not None and history.header is not None:
        plan.resume = history.transcript
        plan.messages = list(history.history)
        plan.header = dict(history.header)
        plan.header_where = history.where
    elif resume is not None and plan.config_file is None:
        from gent_core._transcript.lines import load_transcript

        plan.header = load_transcript(resume).header  # with a CONFIG, the agent reads it
        plan.header_where = f"the transcript {resume}"
    if resume is not None and plan.resume is None:
        plan.resume = resume  # a transcript file, appended to


def _load(plan: _Plan, args: argparse.Namespace) -> LoadedConfig:
    """The config: CONFIG if given, else the one the resumed or continued run recorded,
    else the usual default (``./gent.yaml`` or the built-in agent).
    """
    if plan.header is not None and plan.config_file is None:
        again = f"--resume {args.resume}" if args.resume is not None else "--continue"
        return header_agent_config(
            plan.header,
            args,
            where=plan.header_where,
            give_config=f"Give the config to use: {COMMAND} CONFIG {again}",
        )
    return load_agent_config(plan.config_file, args)


def run(args: argparse.Namespace) -> int:
    """Run the agent; print the live view, the JSON result, or (``-q``) the answer alone.

    Everything printed goes through one :class:`~gent_core._cli.output.Output` holding the
    config's redactor, so secrets are masked on every path (live view, ``--json``, errors)
    and control characters written by a model or a tool are shown as escapes. The task and
    the answer are the user's own text and are shown exactly as written
    (:func:`~gent_core.records.redact_record` for ``--json``).

    A run history (gent-history, through ``gent_resolve_run``) logs the run, unless
    ``--no-log`` is given or logging is off; without one nothing is logged or said.
    """
    from gent_core._cli.live import LiveView

    output = Output()
    plan: _Plan | None = None
    try:
        plan = _plan(args)
        loaded = _load(plan, args)
        output = Output(loaded.redactor)
        agent = _agent(plan, loaded, args, output)
    except GentError as error:
        output.failure(COMMAND, error)
        if plan is not None and plan.history is not None:
            plan.history.close()  # lets go of a resumed run's lock
        return 2
    quiet = getattr(args, "verbosity", 0) < 0
    view = (
        None
        if args.json or quiet
        else LiveView(color=None if not args.no_color else False, redactor=loaded.redactor)
    )
    from gent_core._cli.interrupt import EXIT_INTERRUPTED, run_command  # asyncio: only now

    try:
        result = run_command(_run_and_close(agent, plan, args, view))
    except GentError as error:
        output.failure(COMMAND, error)
        return 2
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM or SIGHUP (gent_core._cli.signals)
        with contextlib.suppress(OSError):  # a terminal that hung up takes nothing
            output.write(f"\n{COMMAND}: interrupted{_resume_hint(args, plan)}\n", err=True)
        return EXIT_INTERRUPTED
    finally:
        if plan.history is not None:
            plan.history.close()
    if args.json:
        from gent_core.records import redact_record

        output.json(redact_record(result.to_dict(), output.redact), redact=False)
    elif quiet:
        print_answer(result, output)
    return 0 if result.ok else 1


def _agent(plan: _Plan, loaded: LoadedConfig, args: argparse.Namespace, output: Output) -> Agent:
    """The agent of the run, its runs logged by the run history (if any)."""
    from gent_core._agent import Agent
    from gent_core._cli.logging_setup import redact_logs_with

    redact_logs_with(loaded.redactor)
    agent = Agent.from_config(loaded, ask_callback=terminal_asker(output))
    if plan.history is not None:
        recorded = plan.header is not None and plan.config_file is None
        plan.history.attach(agent, recorded=recorded)
    return agent


async def _run_and_close(
    agent: Agent, plan: _Plan, args: argparse.Namespace, view: Callable[[AgentEvent], None] | None
) -> RunResult:
    """Run (or resume) the task and close the agent. One event loop for the whole life of the
    agent: toolsets (MCP servers) are opened and stopped in it, also on Ctrl-C.
    """
    try:
        if plan.resume is not None:
            # A transcript file is appended to; a logged run is continued from its records.
            return await agent.resume(plan.resume, on_event=view)  # type: ignore[arg-type]
        assert plan.task is not None
        return await agent.run(
            plan.task, on_event=view, transcript=args.transcript, history=plan.messages
        )
    finally:
        await agent.aclose()


def _resume_hint(args: argparse.Namespace, plan: _Plan) -> str:
    """How to continue an interrupted run: from its transcript file, else its logged id."""
    where = args.resume if isinstance(plan.resume, str) else None
    where = where or args.transcript
    if where:
        again = f"{COMMAND} {plan.config_file} " if plan.config_file else f"{COMMAND} "
        return f"; continue with: {again}--resume {where} (and the same flags)"
    run_id = plan.history.run_id if plan.history is not None else None
    if run_id is not None:
        return f"; continue with: {COMMAND} --resume {run_id}"
    return ""
