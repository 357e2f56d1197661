"""``gent uninstall NAME...``: remove packages (plugins) from the environment gent runs in.

pip runs as ``sys.executable -m pip uninstall`` (see :mod:`gent_core.cli.pip`); ``-y/--yes``
skips pip's confirmation. gent-core itself is refused: removing it would remove the command
that runs (uninstall gent with the tool that installed it).

Exit codes: pip's (0 removed); 2 bad usage (gent-core named) or no pip in gent's environment.
"""

from __future__ import annotations

import argparse

from gent_core.cli.errors import UsageError
from gent_core.cli.helpformat import HelpFormatter
from gent_core.cli.output import Output
from gent_core.errors import GentError

__all__ = ["add_arguments", "run"]

COMMAND = "gent uninstall"

_EXAMPLES = """\
examples:
  gent uninstall gent-mcp
  gent uninstall -y gent-mcp gent-openai   # without asking
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``gent uninstall``."""
    parser.description = (
        "Uninstall packages (gent plugins) with pip from the environment gent runs in. "
        "gent-core itself is refused."
    )
    parser.epilog = _EXAMPLES
    parser.formatter_class = HelpFormatter
    parser.add_argument("names", metavar="NAME", nargs="+", help="the distributions to remove")
    parser.add_argument("-y", "--yes", action="store_true", help="do not ask for confirmation")


def run(args: argparse.Namespace) -> int:
    """Run pip uninstall; say which plugins are gone."""
    from gent_core.cli.pip import (
        GENT_DISTRIBUTION,
        installed_entry_points,
        pip_command,
        requirement_name,
        run_pip,
    )

    output = Output()
    quiet = args.verbosity < 0
    try:
        if any(requirement_name(name) == GENT_DISTRIBUTION for name in args.names):
            raise UsageError(
                f"refusing to uninstall {GENT_DISTRIBUTION}: it is gent itself, and this "
                "command would remove the program running it. Uninstall gent with the tool "
                "that installed it (pipx uninstall gent-core, or pip uninstall gent-core); "
                "nothing was removed"
            )
        before = installed_entry_points()
        arguments = [*(["--yes"] if args.yes else []), *args.names]
        code = run_pip(pip_command("uninstall", arguments, quiet=quiet))
    except GentError as error:
        output.failure(COMMAND, error)
        return 2
    if code != 0:
        output.line(f"{COMMAND}: pip failed (exit code {code})", err=True)
        return code
    after = installed_entry_points()
    removed = sorted(name for name in before if name not in after)
    if removed and not quiet:
        for name in removed:
            output.line(f"Removed plugin {name} ({before[name] or 'unknown distribution'})")
    return 0
