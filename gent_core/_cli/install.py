"""``gent install NAME...``: install plugins into the environment gent itself runs in.

pip runs as ``sys.executable -m pip install`` (see :mod:`gent_core._cli.pip`), so a gent
installed with pipx gains plugins in its own environment. The options are pip's, passed
through as ``llm install`` passes them: ``-U/--upgrade``, ``-e/--editable PATH``,
``--force-reinstall``, ``--no-cache-dir``, ``--pre``; no other option reaches pip: a NAME or
an editable PATH starting with ``-`` (``gent install -- --target=DIR PKG``, ``-- -r FILE``) is
refused before pip runs, as ``gent uninstall`` refuses it. Afterwards the plugins that are new
(or changed version) are listed with what they supply, as ``gent plugins`` shows them.

Exit codes: pip's (0 installed); 2 bad usage or no pip in gent's environment.
"""

from __future__ import annotations

import argparse

from gent_core._cli.errors import UsageError
from gent_core._cli.helpformat import HelpFormatter
from gent_core._cli.output import Output
from gent_core.errors import GentError

__all__ = ["add_arguments", "check_names", "pip_arguments", "run"]

COMMAND = "gent install"

_EXAMPLES = """\
examples:
  gent install ./plugins/gent-mcp          # a plugin's folder (today: from a checkout)
  gent install gent-mcp                    # a plugin from PyPI (once published)
  gent install -U gent-mcp gent-openai     # upgrade plugins
  gent install ./dist/gent_weather-0.1.0-py3-none-any.whl
  gent install -e ./gent-weather           # a plugin you are writing (editable)
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``gent install``."""
    parser.description = (
        "Install packages (gent plugins) with pip into the environment gent runs in, then "
        "list the plugins they added and what each supplies."
    )
    parser.epilog = _EXAMPLES
    parser.formatter_class = HelpFormatter
    parser.add_argument(
        "names",
        metavar="NAME",
        nargs="*",
        help="what to install, as pip takes it: a name (gent-mcp, gent-mcp>=0.2), a wheel or "
        "a project folder",
    )
    parser.add_argument(
        "-U", "--upgrade", action="store_true", help="upgrade the packages to the newest version"
    )
    parser.add_argument(
        "-e",
        "--editable",
        metavar="PATH",
        action="append",
        default=[],
        help="install a local project in editable mode (repeatable)",
    )
    parser.add_argument(
        "--force-reinstall", action="store_true", help="reinstall even when up to date"
    )
    parser.add_argument("--no-cache-dir", action="store_true", help="do not use pip's cache")
    parser.add_argument(
        "--pre", action="store_true", help="include pre-release and development versions"
    )


def pip_arguments(args: argparse.Namespace) -> list[str]:
    """The arguments of ``pip install`` for ``args``."""
    arguments: list[str] = []
    if args.upgrade:
        arguments.append("--upgrade")
    for path in args.editable:
        arguments += ["--editable", path]
    for flag in ("force_reinstall", "no_cache_dir", "pre"):
        if getattr(args, flag):
            arguments.append("--" + flag.replace("_", "-"))
    return [*arguments, *args.names]


def check_names(args: argparse.Namespace) -> None:
    """Refuse a NAME or an editable PATH that pip would read as an option.

    Raises:
        UsageError: Naming it, and saying what is accepted (nothing was installed).
    """
    for name in [*args.names, *args.editable]:
        if name.startswith("-"):
            raise UsageError(
                f"{name!r} looks like an option; {COMMAND} passes only its own options to pip "
                "(-U, -e, --force-reinstall, --no-cache-dir, --pre): give package names, "
                "wheels or project folders (write a folder starting with '-' as ./-name); "
                "nothing was installed"
            )


def run(args: argparse.Namespace) -> int:
    """Run pip install; list the plugins it added."""
    from gent_core._cli.pip import installed_entry_points, pip_command, plugins_now, run_pip
    from gent_core._cli.plugins import render_table

    output = Output()
    quiet = args.verbosity < 0
    try:
        if not args.names and not args.editable:
            raise UsageError("name at least one package to install (or -e PATH)")
        check_names(args)
        before = installed_entry_points()
        code = run_pip(pip_command("install", pip_arguments(args), quiet=quiet))
        if code != 0:
            output.line(f"{COMMAND}: pip failed (exit code {code}); nothing was changed", err=True)
            return code
        after = installed_entry_points()
        changed = {name for name, dist in after.items() if before.get(name, "") != dist}
        added = [info for info in plugins_now() if info.name in changed]
    except GentError as error:
        output.failure(COMMAND, error)
        return 2
    if quiet:
        return 0
    if not added:
        output.line(
            "\nNo new gent plugin: what was installed declares no 'gent' entry point, or was "
            "there already ('gent plugins' lists every plugin)."
        )
        return 0
    output.line("\nPlugins installed:")
    output.line(render_table(sorted(added, key=lambda info: info.name)))
    failed = [info.name for info in added if info.status == "failed"]
    if failed:
        output.line(
            f"\n{len(failed)} of them failed to load: {', '.join(failed)}; "
            "'gent plugins --json' shows the errors.",
            err=True,
        )
    return 0
