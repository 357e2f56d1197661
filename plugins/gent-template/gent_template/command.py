"""``gent new-plugin NAME [--kind KIND] [--dir DIR]``: start a plugin package from the template.

It writes ``DIR/gent-NAME/``: a ``pyproject.toml`` with the ``gent`` entry point, the package
with one working example component of the chosen kind, tests that use gent's testing kit
(they pass as generated), and a README. See :mod:`gent_template.scaffold`.

A name is refused when it is not a plugin name (lowercase words, at most 50 characters), is
reserved (``core``: gent itself), or is taken by an installed package (a plugin's entry point,
a distribution ``gent-NAME``, an importable package ``gent_NAME``): once installed, the new
package would replace it.

Exit codes: 0 written; 2 a bad, reserved or taken name, a bad kind, the folder exists
already, or it cannot be written.
"""

from __future__ import annotations

import argparse

from gent_core.errors import GentError

__all__ = ["add_arguments", "run"]

_EXAMPLES = """\
examples:
  gent new-plugin weather                  # a tool package: ./gent-weather
  gent new-plugin brackets --kind format --dir plugins
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``gent new-plugin``."""
    parser.epilog = _EXAMPLES
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    from gent_template.scaffold import KINDS

    parser.add_argument(
        "name", metavar="NAME", help="the plugin's name, e.g. weather (package gent-weather)"
    )
    parser.add_argument(
        "--kind",
        choices=KINDS,
        default="tool",
        help="the kind of the example component to start from (default: tool)",
    )
    parser.add_argument(
        "--dir",
        metavar="DIR",
        default=".",
        help="where to create the package folder gent-NAME (default: the current directory)",
    )


def run(args: argparse.Namespace) -> int:
    """Write the package and say what to do next."""
    from gent_core.cliframe import Output, UsageError
    from gent_template.scaffold import plugin_names, render_plugin

    output = Output()
    try:
        target = render_plugin(args.name, args.kind, args.dir)
    except (ValueError, FileExistsError, GentError) as error:
        output.error("gent new-plugin", str(error), cause=UsageError)
        return 2
    except OSError as error:
        where = f" {error.filename}" if error.filename else ""
        output.error("gent new-plugin", f"cannot write{where}: {error.strerror or error}")
        return 2
    names = plugin_names(args.name)
    output.line(f"Wrote {target} ({args.kind} '{names.plugin}', package {names.package}).")
    output.line("")
    output.line("Next:")
    output.line(f"  cd {target}")
    output.line("  pip install -e '.[test]'")
    output.line("  python -m pytest tests")
    output.line(f"  gent plugins    # lists '{names.plugin}'")
    return 0
