"""``gent help [COMMAND]``: the help of ``gent`` or of one command (as ``gent COMMAND --help``)."""

from __future__ import annotations

import argparse

from gent_core._cli.helpformat import HelpFormatter

__all__ = ["add_arguments", "run"]

_EXAMPLES = """\
examples:
  gent help                               # gent's own help: every command
  gent help run                           # the same as gent run --help
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``gent help``."""
    parser.epilog = _EXAMPLES
    parser.formatter_class = HelpFormatter
    parser.add_argument(
        "topic", nargs="?", metavar="COMMAND", help="the command to explain (none: every command)"
    )


def run(args: argparse.Namespace) -> int:
    """Print the help asked for: 0, or 2 for a command that does not exist."""
    from gent_core._cli.main import build_parser

    parser = build_parser()
    if args.topic is None:
        parser.print_help()
        return 0
    try:
        parser.parse_args([args.topic, "--help"])
    except SystemExit as exit_:  # --help exits 0; an unknown command exits 2 with its error
        return exit_.code if isinstance(exit_.code, int) else 2
    return 0  # pragma: no cover - --help always exits
