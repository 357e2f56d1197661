"""``gent uninstall NAME...``: remove packages (plugins) from the environment gent runs in.

Each NAME is a distribution (``gent-mcp``), a plugin's name as ``gent plugins`` shows it
(``mcp``: its distribution is removed), or a wheel file (its distribution). Anything else is
refused before pip runs: a name that is neither installed nor an installed plugin's, a path
that is not a wheel, and anything starting with ``-`` (so nothing reaches pip as an option,
``-r req.txt`` included). gent-core itself is refused, whichever way it is named: removing it
would remove the command that runs (uninstall gent with the tool that installed it); so is
what it needs to run (its requirements, transitively: ``pluggy``, ``pydantic``,
``pydantic-core``...) and ``pip``, which ``gent install`` needs
(:func:`~gent_core._cli.pip.protected_distributions`).

pip runs as ``sys.executable -m pip uninstall [--yes] -- DISTRIBUTION...`` (see
:mod:`gent_core._cli.pip`); ``-y/--yes`` skips pip's confirmation.

Exit codes: pip's (0 removed); 2 bad usage (gent-core named, a name that is not installed, an
option or a path) or no pip in gent's environment.
"""

from __future__ import annotations

import argparse
import re
from pathlib import PurePath

from gent_core._cli.errors import UsageError
from gent_core._cli.helpformat import HelpFormatter
from gent_core._cli.output import Output
from gent_core.errors import GentError

__all__ = ["add_arguments", "distribution_to_remove", "run"]

COMMAND = "gent uninstall"

_EXAMPLES = """\
examples:
  gent uninstall gent-mcp
  gent uninstall mcp                       # a plugin's name: removes its distribution
  gent uninstall -y gent-mcp gent-openai   # without asking
"""

_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")
"""A distribution or plugin name (PEP 508)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``gent uninstall``."""
    parser.description = (
        "Uninstall packages (gent plugins) with pip from the environment gent runs in: "
        "distributions, plugins by the name gent plugins shows, or wheel files. gent-core "
        "itself, what it needs to run, and pip are refused."
    )
    parser.epilog = _EXAMPLES
    parser.formatter_class = HelpFormatter
    parser.add_argument(
        "names",
        metavar="NAME",
        nargs="+",
        help="a distribution (gent-mcp), a plugin name (mcp) or a wheel file to remove",
    )
    parser.add_argument("-y", "--yes", action="store_true", help="do not ask for confirmation")


def _installed_distribution(name: str) -> str | None:
    """The installed distribution called ``name`` (any spelling pip accepts), or ``None``."""
    from importlib import metadata

    from gent_core._cli.pip import canonical_name

    try:
        found = metadata.distribution(name)
    except (metadata.PackageNotFoundError, ValueError):
        return None
    return canonical_name(found.metadata["Name"] or name)


def distribution_to_remove(name: str) -> tuple[str, str | None]:
    """The distribution ``gent uninstall NAME`` removes, and a note when NAME was a plugin's.

    Raises:
        UsageError: For an option, a path that is not a wheel, a name that is not a
            distribution name, or one neither installed nor an installed plugin's; saying what
            is accepted.
    """
    from gent_core._plugins.manager import installed_plugins

    accepted = (
        "give a distribution (gent-mcp), a plugin's name as gent plugins shows it (mcp), or a "
        "wheel file"
    )
    if name.startswith("-"):
        raise UsageError(
            f"{name!r} looks like an option; {COMMAND} passes no options to pip: {accepted}; "
            "nothing was removed"
        )
    path = PurePath(name)
    if path.suffix == ".whl":
        wheel_name = path.name.split("-", 1)[0]
        distribution = _installed_distribution(wheel_name)
        if distribution is None:
            raise UsageError(
                f"the wheel {name} is of {wheel_name!r}, which is not installed; nothing was "
                "removed"
            )
        return distribution, f"{path.name} is a wheel of {distribution}"
    if not _NAME.fullmatch(name):
        raise UsageError(f"{name!r} is not a package name; {accepted}; nothing was removed")
    distribution = _installed_distribution(name)
    if distribution is not None:
        return distribution, None
    owners = {plugin.distribution for plugin in installed_plugins() if plugin.name == name}
    owners.discard(None)
    if len(owners) == 1:
        (owner,) = owners
        assert owner is not None
        return _installed_distribution(owner) or owner, f"{name} is a plugin of {owner}"
    if owners:
        listed = ", ".join(sorted(str(owner) for owner in owners))
        raise UsageError(
            f"several distributions supply a plugin named {name!r} ({listed}); name the one to "
            "remove; nothing was removed"
        )
    raise UsageError(
        f"{name!r} is neither an installed distribution nor the name of an installed plugin "
        "(gent plugins lists the plugins and their distributions); nothing was removed"
    )


def run(args: argparse.Namespace) -> int:
    """Run pip uninstall on the distributions the names stand for; say which plugins are gone."""
    from gent_core._cli.pip import (
        installed_entry_points,
        pip_command,
        protected_distributions,
        run_pip,
    )

    output = Output()
    quiet = args.verbosity < 0
    try:
        distributions: list[str] = []
        notes: list[str] = []
        protected = protected_distributions()
        for name in args.names:
            distribution, note = distribution_to_remove(name)
            if distribution in protected:
                named = f" ({note})" if note else ""
                raise UsageError(
                    f"refusing to uninstall {distribution}{named}: {protected[distribution]}. "
                    "Uninstall gent with the tool that installed it (pipx uninstall gent-core, "
                    "or pip uninstall gent-core); nothing was removed"
                )
            if note is not None:
                notes.append(f"{note}: removing {distribution}")
            if distribution not in distributions:
                distributions.append(distribution)
        if not quiet:
            for note in notes:
                output.line(note)
        before = installed_entry_points()
        arguments = [*(["--yes"] if args.yes else []), "--", *distributions]
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
