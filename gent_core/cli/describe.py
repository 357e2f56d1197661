"""``gent describe``: print the exact system prompt (and grammar, if any) of a configured agent."""

from __future__ import annotations

import argparse
import asyncio
import sys

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

    try:
        agent = Agent.from_config(load_config(args.config))
        if agent.toolsets:
            asyncio.run(open_and_close(agent))
        grammar = agent.model.grammar(agent.structure())
    except GentError as error:
        print(f"gent describe: error: {error}", file=sys.stderr)
        return 2
    print("# System prompt\n")
    print(agent.system_prompt())
    if grammar:
        print("\n# Grammar (GBNF)\n")
        print(grammar)
    return 0
