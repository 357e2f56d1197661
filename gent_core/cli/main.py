"""Entry point of the ``gent`` command: argument parsing and dispatch to subcommands.

Subcommand modules are imported only when their subcommand runs, so ``gent --version`` and
``gent --help`` stay fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from gent_core import __version__

__all__ = ["build_parser", "main"]

# subcommand -> (module, one-line help). Each module has ``add_arguments(parser)`` and
# ``run(args) -> int``.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "run": ("gent_core.cli.run", "run an agent from a config file on a task"),
    "describe": ("gent_core.cli.describe", "print an agent's exact system prompt and grammar"),
    "parse": ("gent_core.cli.parse", "split a model output into sections (and tool calls)"),
    "plugins": ("gent_core.cli.plugins", "list installed plugins and what they supply"),
}


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="gent",
        description="gent: LLM agents that call tools through text.",
    )
    parser.add_argument("--version", action="version", version=f"gent {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        sub = subparsers.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(_module=module_name)
        module = importlib.import_module(module_name)
        module.add_arguments(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``gent`` command and return its exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    module = importlib.import_module(args._module)
    code: int = module.run(args)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
