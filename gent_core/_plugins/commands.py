"""Commands that plugins add to the ``gent`` command line.

A plugin supplies commands through the ``gent_register_commands`` hook, naming the module
that implements each one, so nothing is imported until the command runs::

    @hookimpl
    def gent_register_commands():
        return {"convert": Command("gent_natural.cli", "convert conversations")}

The module has the same shape as the built-in subcommands:

``add_arguments(parser: argparse.ArgumentParser) -> None``
    Adds the command's arguments.
``run(args: argparse.Namespace) -> int``
    Runs the command and returns its exit code.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["COMMAND_NAME", "Command"]

COMMAND_NAME = re.compile(r"[a-z][a-z0-9-]*")
"""What a command name may look like: lowercase letters, digits and dashes."""


class Command(NamedTuple):
    """One subcommand of ``gent`` supplied by a plugin (an immutable value).

    Attributes:
        module: The importable module implementing ``add_arguments`` and ``run``.
        help: One line for ``gent --help``.
    """

    module: str
    help: str = ""
