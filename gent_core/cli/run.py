"""``gent run``: run an agent from a YAML config on a task, with a live view.

Exit codes: 0 the agent answered; 1 the run stopped without an answer (a limit, a model
failure, cancelled); 2 bad usage or a bad config file.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from gent_core.cli.output import Output
from gent_core.errors import GentError
from gent_core.serialize import write_json

if TYPE_CHECKING:
    from gent_core.agent import RunResult
    from gent_core.toolchain import ToolCall

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``gent run``."""
    parser.add_argument("config", metavar="CONFIG", help="the agent's YAML config file")
    parser.add_argument("task", metavar="TASK", nargs="?", help="what to do (omit with --resume)")
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object at the end (answer, stop_reason, steps, stats) instead of "
        "the live view",
    )
    parser.add_argument(
        "--transcript", metavar="PATH", help="append the run to this JSONL file, step by step"
    )
    parser.add_argument(
        "--resume",
        metavar="PATH",
        help="continue the interrupted run recorded in this transcript (appending to it)",
    )
    parser.add_argument("--no-color", action="store_true", help="no ANSI colours in the live view")


def _asker(output: Output) -> Callable[[ToolCall], bool]:
    """Ask on the terminal whether a tool call may run (the approval policy's 'ask')."""

    def ask(call: ToolCall) -> bool:
        if not sys.stdin.isatty():
            return False
        output.write(f"Allow {call.tool} {write_json(call.args)}? [y/N] ")
        reply = input()
        return reply.strip().lower() in {"y", "yes"}

    return ask


def run(args: argparse.Namespace) -> int:
    """Run the agent; print the live view or the JSON result.

    Everything printed goes through one :class:`~gent_core.cli.output.Output` holding the
    config's redactor, so secrets are masked on every path (live view, ``--json``, errors)
    and control characters written by a model or a tool are shown as escapes.
    """
    from gent_core.agent import Agent
    from gent_core.cli.live import LiveView
    from gent_core.config import load_config

    output = Output()
    if (args.task is None) == (args.resume is None):
        output.error("gent run", "give a TASK, or --resume TRANSCRIPT (not both)")
        return 2
    try:
        loaded = load_config(args.config)
        output = Output(loaded.redactor)
        agent = Agent.from_config(loaded, ask_callback=_asker(output))
    except GentError as error:
        output.error("gent run", str(error))
        return 2
    view = (
        None
        if args.json
        else LiveView(color=False if args.no_color else None, redactor=loaded.redactor)
    )

    async def run_and_close() -> RunResult:
        # One event loop for the whole life of the agent: toolsets (MCP servers) are opened
        # and stopped in it, also on Ctrl-C.
        try:
            if args.resume:
                return await agent.resume(args.resume, on_event=view)
            return await agent.run(args.task, on_event=view, transcript=args.transcript)
        finally:
            await agent.aclose()

    try:
        result = asyncio.run(run_and_close())
    except GentError as error:
        output.error("gent run", str(error))
        return 2
    except KeyboardInterrupt:
        where = args.resume or args.transcript
        hint = f"; continue with: gent run {args.config} --resume {where}" if where else ""
        output.write(f"\ngent run: interrupted{hint}\n", err=True)
        return 130
    if args.json:
        output.json(result.to_dict())
    return 0 if result.ok else 1
