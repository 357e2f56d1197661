"""``gent describe``: print the exact system prompt (and grammar, if any) of a configured agent."""

from __future__ import annotations

import argparse
import asyncio

from gent_core.cli.output import Output
from gent_core.errors import GentError

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``gent describe``."""
    parser.add_argument("config", metavar="CONFIG", help="the agent's YAML config file")


def run(args: argparse.Namespace) -> int:
    """Print the system prompt, then the grammar when the model constrains generation."""
    from gent_core.agent import Agent
    from gent_core.config import load_config

    async def open_and_close(agent: Agent) -> None:
        # Toolsets (MCP servers) are opened to list their tools, then stopped.
        try:
            await agent.open()
        finally:
            await agent.aclose()

    output = Output()  # secrets masked, control characters shown (gent_core.cli.output)
    try:
        loaded = load_config(args.config)
        output = Output(loaded.redactor)
        agent = Agent.from_config(loaded)
        if agent.toolsets:
            asyncio.run(open_and_close(agent))
        grammar = agent.model.grammar(agent.structure())
    except GentError as error:
        output.error("gent describe", str(error))
        return 2
    output.line("# System prompt\n")
    output.line(agent.system_prompt())
    if grammar:
        output.line("\n# Grammar (GBNF)\n")
        output.line(grammar)
    return 0
