r"""``gent chat [CONFIG]``: a conversation with an agent, turn after turn, on the terminal.

Each message the user sends is one run of the agent (:meth:`Agent.run
<gent_core._agent.Agent.run>`), which may call tools, shown by the live view of ``gent run``.
The conversation carries across turns: the messages of the finished turns (each task and
every step's messages, rebuilt from the run's records as ``--resume`` rebuilds them:
:func:`~gent_core._replay.turn_messages`) are the next turn's history. With a run
history (gent-history, through the ``gent_resolve_run`` hook) the turns are logged as the runs
of one conversation, and ``-c/--continue`` resumes the last logged one, its turns first in the
history.

* A message ends at the end of its line; a line ending in ``\`` continues on the next (the
  backslash is dropped and the lines are joined by a newline).
* ``!exit`` (or ``!quit``), or Ctrl-D on an empty line, ends the conversation (exit 0).
* Ctrl-C while the agent works cancels that turn, which is left out of the conversation,
  and the conversation goes on (:func:`~gent_core._cli.interrupt.run_turn`); Ctrl-C at the
  prompt drops the line being typed.
* SIGTERM or SIGHUP (a closing terminal), at the prompt or during a turn, ends the
  conversation as a stopped command: the turn is cancelled, the toolsets are stopped, and the
  exit status is 143 or 129 (:mod:`gent_core._cli.signals`).

One event loop serves the whole conversation, so toolsets (MCP servers) are opened once and
stay open between turns; they are stopped when the conversation ends.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from gent_core._cli.agentconfig import (
    LOCAL_CONFIG,
    add_agent_arguments,
    header_agent_config,
    load_agent_config,
)
from gent_core._cli.errors import UsageError
from gent_core._cli.helpformat import HelpFormatter
from gent_core._cli.output import Output
from gent_core.errors import GentError

if TYPE_CHECKING:
    from gent_core._agent import Agent
    from gent_core._config import LoadedConfig
    from gent_core._config.secrets import Redactor
    from gent_core.hookspecs import RunHistory
    from gent_core.messages import Message

__all__ = ["EXIT_WORDS", "add_arguments", "read_message", "run"]

COMMAND = "gent chat"

EXIT_WORDS = frozenset({"!exit", "!quit"})
"""A message that is one of these ends the conversation."""

PROMPT = ">>> "
CONTINUATION = "... "

_DESCRIPTION = f"""\
Talk with an agent: each message you send is a task the agent works on (calling tools as in
gent run, shown live), and the conversation carries across turns (the agent sees the earlier
messages and answers).

The agent's config is CONFIG (or --config FILE); else, with --continue, the configuration the
conversation recorded; else ./{LOCAL_CONFIG} if it exists; else the built-in agent. The flags
change any key of it, as for gent run. The tools work in the config file's folder, not the
current directory (--cwd DIR changes it).

With gent-history installed (the quick start installs it), the turns are logged as one
conversation (gent logs), and -c/--continue resumes the last logged conversation (of gent chat
or gent run): the agent sees its earlier turns.

Typing: a message ends at the end of the line; end a line with \\ to continue it on the next.
!exit or Ctrl-D on an empty line ends the conversation; Ctrl-C cancels the turn the agent is
working on (the conversation goes on without it)."""

_EXAMPLES = """\
examples:
  gent chat                                   # the built-in agent (or ./gent.yaml)
  gent chat agent.yaml -s "Answer in one sentence."
  gent chat -c                                # resume the last conversation
  gent chat -m openai -o model.base_url=http://127.0.0.1:8080/v1 --cwd ~/notes
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``gent chat``."""
    parser.description = _DESCRIPTION
    parser.epilog = _EXAMPLES
    parser.formatter_class = HelpFormatter
    parser.usage = "%(prog)s [options] [CONFIG]"
    parser.add_argument(
        "config", metavar="CONFIG", nargs="?", help="the agent's YAML config file (optional)"
    )
    history = parser.add_argument_group("history", "the run history (gent-history: gent logs)")
    history.add_argument(
        "-c",
        "--continue",
        dest="continue_conversation",
        action="store_true",
        help="resume the last logged conversation: its turns are the history of this one, "
        "with the configuration it recorded unless CONFIG is given",
    )
    history.add_argument(
        "--no-log",
        action="store_true",
        help="leave this conversation out of the run history (gent logs off: every run)",
    )
    add_agent_arguments(parser)


def read_message(read_line: Callable[[str], str]) -> str | None:
    r"""Read one message with ``read_line`` (``input``): lines ending in ``\`` continue.

    Returns:
        The message, or ``None`` when the conversation ends (``!exit``, end of input).

    Raises:
        KeyboardInterrupt: Ctrl-C while typing (the caller drops the message).
    """
    lines: list[str] = []
    while True:
        try:
            line = read_line(CONTINUATION if lines else PROMPT)
        except EOFError:
            if not lines:
                return None
            break  # the end of input finishes the message being continued
        if line.endswith("\\"):
            lines.append(line[:-1])
            continue
        lines.append(line)
        break
    message = "\n".join(lines)
    return None if message.strip() in EXIT_WORDS else message


def _config_file(args: argparse.Namespace) -> str | None:
    positional: str | None = args.config
    flag: str | None = args.config_file
    if positional is not None and flag is not None:
        raise UsageError("give the config once: CONFIG or --config FILE (not both)")
    return positional if positional is not None else flag


def _reader(interactive: bool) -> Callable[[str], str]:
    """``input`` with line editing on a terminal; without a prompt when input is piped."""
    if interactive:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401 - line editing and history for input()
        return input

    def read_line(prompt: str) -> str:
        return input()

    return read_line


def run(args: argparse.Namespace) -> int:
    """Hold the conversation; return 0 when it ends, 2 for a bad config or a failure that
    ends it (a toolset that cannot start).
    """
    from gent_core._cli.interrupt import finish_loop, run_turn

    output = Output()
    history: RunHistory | None = None
    try:
        history = _history(args)
        loaded = _load(args, history)
        output = Output(loaded.redactor)
        agent = _chat_agent(loaded, args, output, history)
    except GentError as error:
        output.failure(COMMAND, error)
        if history is not None:
            history.close()
        return 2
    quiet = getattr(args, "verbosity", 0) < 0
    interactive = sys.stdin.isatty()
    continued = history.continued if history is not None else None
    if continued is not None and not quiet:
        output.line(f"Continuing {continued}.", err=True)
    if interactive and not quiet:
        output.line(
            f"Chatting with {loaded.source}. End a line with \\ to continue it; "
            "!exit or Ctrl-D to leave; Ctrl-C cancels a turn.",
            err=True,
        )
    messages = list(history.history) if history is not None else []
    loop = asyncio.new_event_loop()
    try:
        code = _converse(loop, agent, _reader(interactive), output, args, loaded.redactor, messages)
    finally:
        # Stop the toolsets and the model in the loop they run in, then close it as
        # asyncio.run would; a Ctrl-C meanwhile only cuts the cleanup short.
        with contextlib.suppress(KeyboardInterrupt, GentError):
            run_turn(loop, agent.aclose())
        with contextlib.suppress(KeyboardInterrupt):
            finish_loop(loop)
        loop.close()
        if history is not None:
            history.close()
    if interactive and not quiet and code == 0:
        output.write("\n", err=True)
    return code


def _ended(output: Output) -> int:
    """SIGTERM or SIGHUP: one line (when the terminal still takes it), and the status of an
    interrupted command (the toolsets are closed by :func:`run`).
    """
    from gent_core._cli.signals import EXIT_INTERRUPTED

    with contextlib.suppress(OSError):  # a terminal that hung up takes nothing
        output.write(f"\n{COMMAND}: interrupted\n", err=True)
    return EXIT_INTERRUPTED


def _history(args: argparse.Namespace) -> RunHistory | None:
    """The conversation's run history (a plugin's: gent-history), with ``--continue`` the
    conversation it joins; ``None`` when no plugin keeps one.

    Raises:
        GentError: Nothing to continue, or ``--continue`` without a run history.
    """
    from gent_core._cli.runhistory import resolve_run_history

    return resolve_run_history(
        COMMAND,
        resume=None,
        continue_conversation=args.continue_conversation,
        log=not args.no_log,
    )


def _load(args: argparse.Namespace, history: RunHistory | None) -> LoadedConfig:
    """The config: CONFIG, else with ``--continue`` the one the conversation recorded, else
    the usual default.

    Raises:
        GentError: A bad config.
    """
    config_file = _config_file(args)
    header = history.header if history is not None else None
    if header is None or config_file is not None:
        return load_agent_config(config_file, args)
    assert history is not None
    return header_agent_config(
        dict(header),
        args,
        where=history.where,
        give_config=f"Give the config to use: {COMMAND} CONFIG --continue",
    )


def _chat_agent(
    loaded: LoadedConfig, args: argparse.Namespace, output: Output, history: RunHistory | None
) -> Agent:
    """The agent of the conversation; the run history (if any) logs its turns as the runs
    of one conversation (joining the one ``--continue`` resumes).
    """
    from gent_core._agent import Agent
    from gent_core._cli.logging_setup import redact_logs_with
    from gent_core._cli.run import terminal_asker

    redact_logs_with(loaded.redactor)
    agent = Agent.from_config(loaded, ask_callback=terminal_asker(output))
    if history is not None:
        recorded = history.header is not None and _config_file(args) is None
        history.attach(agent, recorded=recorded)
    return agent


def _converse(
    loop: asyncio.AbstractEventLoop,
    agent: Agent,
    read_line: Callable[[str], str],
    output: Output,
    args: argparse.Namespace,
    redactor: Redactor,
    messages: list[Message],
) -> int:
    """Read messages and run a turn for each until the input ends (0) or a turn fails in a
    way that ends the conversation (2); each answered turn joins ``messages`` (the earlier
    turns of a continued conversation, or nothing).
    """
    from gent_core._cli.interrupt import run_turn
    from gent_core._cli.live import LiveView
    from gent_core._cli.run import print_answer
    from gent_core._cli.signals import ends_session
    from gent_core._replay import turn_messages

    quiet = getattr(args, "verbosity", 0) < 0
    view = (
        None
        if quiet
        else LiveView(
            color=None if not args.no_color else False, redactor=redactor, show_task=False
        )
    )
    while True:
        try:
            message = read_message(read_line)
        except KeyboardInterrupt:  # Ctrl-C at the prompt: drop the line
            if ends_session():  # SIGTERM, SIGHUP: the conversation ends
                return _ended(output)
            output.write("\n", err=True)
            continue
        if message is None:
            return 0
        if not message.strip():
            continue
        try:
            result = run_turn(loop, agent.run(message, on_event=view, history=messages))
        except KeyboardInterrupt:
            if ends_session():
                return _ended(output)
            output.write(f"\n{COMMAND}: turn cancelled (left out of the conversation)\n", err=True)
            continue
        except GentError as error:
            output.failure(COMMAND, error)
            return 2
        messages.extend(turn_messages(result))
        if quiet:
            print_answer(result, output, COMMAND)
