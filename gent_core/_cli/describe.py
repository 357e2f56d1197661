"""``gent describe``: print what a configured agent sends its model.

* ``gent describe [CONFIG]``: the exact system prompt; then, when the model back end
  constrains generation, its grammar and what constrains each section (sections a component
  offers no grammar for are named as unconstrained, with the reason), or why no grammar is
  used.
* ``gent describe [CONFIG] --prompt TASK``: instead of the system prompt, the exact text the
  back end sends for that task (``Model.render_request``): a base model's raw prompt, few-shot
  example included; a chat API's messages as JSON.

The agent is found and changed as for ``gent run`` (CONFIG, ``./gent.yaml`` or the built-in
agent; ``-m``, ``--format``, ``--toolchain``, ``-T``, ``--no-tools``, ``-o KEY=VALUE``), so
``gent describe -T read_file`` shows the prompt ``gent run -T read_file ...`` would use.
"""

from __future__ import annotations

import argparse
import logging
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from gent_core._cli.agentconfig import (
    LOCAL_CONFIG,
    add_agent_arguments,
    default_agent_help,
    load_agent_config,
)
from gent_core._cli.helpformat import HelpFormatter
from gent_core._cli.interrupt import run_command
from gent_core._cli.output import Output
from gent_core.errors import GentError

if TYPE_CHECKING:
    from gent_core._agent import Agent
    from gent_core.model import OutputStructure

__all__ = ["add_arguments", "run"]

COMMAND = "gent describe"

_DESCRIPTION = f"""\
Print the exact system prompt of an agent, then the grammar its model back end constrains
the output with (and what constrains each section), or why it uses none.

The agent is CONFIG (or --config FILE); without one, ./{LOCAL_CONFIG} if it exists; else the
built-in agent:

{{default_agent}}

The same flags as gent run change any key of it."""

_EXAMPLES = """\
examples:
  gent describe                                    # the built-in agent (or ./gent.yaml)
  gent describe agent.yaml --prompt "What is 17 * 23?"   # the exact text the model gets
  gent describe --format markdown --toolchain yaml -T read_file
  gent describe agent.yaml -o termination.schema=answers:Verdict -o termination.name=json
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``gent describe``."""
    parser.description = _DESCRIPTION.format(default_agent=default_agent_help())
    parser.epilog = _EXAMPLES
    parser.formatter_class = HelpFormatter
    parser.add_argument(
        "config",
        metavar="CONFIG",
        nargs="?",
        help=f"the agent's YAML config file (default: ./{LOCAL_CONFIG}, else the built-in agent)",
    )
    parser.add_argument(
        "--prompt",
        metavar="TASK",
        help="print the exact text the model back end sends for TASK (a base model's raw "
        "prompt with its few-shot example, or a chat API's messages) instead of the system "
        "prompt",
    )
    add_agent_arguments(parser)


class _Warnings(logging.Handler):
    """Collects the warnings gent's loggers emit (a grammar dropped, and why)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def _collected_warnings() -> Iterator[list[str]]:
    logger = logging.getLogger("gent")
    handler = _Warnings()
    logger.addHandler(handler)
    propagate, logger.propagate = logger.propagate, False
    try:
        yield handler.messages
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


def _request_text(agent: Agent, task: str) -> str | None:
    """What the back end sends for the first step of ``task``."""
    from gent_core._agent.run import AgentRun
    from gent_core.context import ExecutionContext

    context = ExecutionContext(
        working_directory=agent.working_directory,
        limits=agent.limits,
        plugin_manager=agent.run_hooks(),
    )
    run = AgentRun(agent, task, context, lambda event: None, None)
    return agent.model.render_request(run.model_request())


def _shown_request(agent: Agent, task: str, redact: Callable[[str], str]) -> str | None:
    """The request for ``task`` as shown: redacted as free text, except the task itself, which
    is the user's own text and is shown exactly as the back end writes it.

    The request is rendered a second time with a marker for the task, so the task is found by
    where the back end puts it (escaped in JSON, say), not by searching for its text.
    """
    text = _request_text(agent, task)
    if text is None:
        return None
    marker = f"GENTTASK{uuid.uuid4().hex}"
    template = _request_text(agent, marker)
    parts = template.split(marker) if template is not None else [text]
    count = len(parts) - 1
    rest = len(text) - sum(len(part) for part in parts)
    if count == 0 or rest < 0 or rest % count:
        return redact(text)  # the task is not in the request, or not written as it was
    start = len(parts[0])
    written = text[start : start + rest // count]
    if written.join(parts) != text:
        return redact(text)
    return written.join(redact(part) for part in parts)


def _coverage(structure: OutputStructure, grammar: str) -> list[str]:
    """What constrains each section, when ``grammar`` is gent's agent grammar."""
    from gent_core._grammar.output import agent_grammar

    try:
        built = agent_grammar(structure)
    except Exception:  # noqa: BLE001 - the back end built its grammar some other way
        return []
    return built.explain() if built.text == grammar else []


def run(args: argparse.Namespace) -> int:
    """Print the system prompt (or the request for ``--prompt``), then the grammar."""
    from gent_core._agent import Agent
    from gent_core._cli.errors import UsageError
    from gent_core._cli.logging_setup import redact_logs_with

    async def open_and_close(agent: Agent) -> None:
        # Toolsets (MCP servers) are opened to list their tools, then stopped.
        try:
            await agent.open()
        finally:
            await agent.aclose()

    output = Output()  # secrets masked, control characters shown (gent_core._cli.output)
    request: str | None = None
    try:
        if args.config is not None and args.config_file is not None:
            raise UsageError("give the config once: as CONFIG or as --config, not both")
        loaded = load_agent_config(args.config or args.config_file, args)
        output = Output(loaded.redactor)
        redact_logs_with(loaded.redactor)
        agent = Agent.from_config(loaded)
        if agent.toolsets:
            run_command(open_and_close(agent))
        structure = agent.structure()
        with _collected_warnings() as warnings:
            grammar = agent.model.grammar(structure)
            if args.prompt is not None:
                request = _shown_request(agent, args.prompt, output.redact)
    except GentError as error:
        output.failure(COMMAND, error)
        return 2
    if args.prompt is not None and request is not None:
        output.line(f"# Request sent by {agent.model.describe()}\n")
        output.line(request, redact=False)  # redacted above, all but the task
    else:
        if args.prompt is not None:
            output.line(
                f"gent describe: note: the {agent.model.describe()} back end does not show its "
                "requests (Model.render_request); showing the system prompt",
                err=True,
            )
        output.line("# System prompt\n")
        output.line(agent.system_prompt())
    if grammar:
        output.line("\n# Grammar (GBNF)\n")
        output.line(grammar)
        coverage = _coverage(structure, grammar)
        if coverage:
            output.line("\n# What constrains each section\n")
            for line in coverage:
                output.line(line)
    elif warnings:
        output.line("\n# Grammar\n")
        for message in dict.fromkeys(warnings):
            output.line(f"none: {message}")
    return 0
