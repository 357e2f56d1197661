"""Entry point of the ``gent`` command: argument parsing and dispatch to subcommands.

Built-in subcommands are listed in :data:`SUBCOMMANDS`; plugins add their own through the
``gent_register_commands`` hook (see :mod:`gent_core._plugins.commands`). A plugin command
whose module fails to import is reported and left out; every other command keeps working.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from types import ModuleType

from gent_core import __version__
from gent_core._cli.helpformat import HelpFormatter

__all__ = ["SUBCOMMANDS", "build_parser", "main"]

logger = logging.getLogger("gent.cli")

# subcommand -> (module, one-line help). Each module has ``add_arguments(parser)`` and
# ``run(args) -> int``.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "run": ("gent_core._cli.run", "run an agent on a task (a config file is optional)"),
    "describe": ("gent_core._cli.describe", "print an agent's exact system prompt and grammar"),
    "parse": ("gent_core._cli.parse", "split a model output into sections (and tool calls)"),
    "plugins": ("gent_core._cli.plugins", "list installed plugins and what they supply"),
    "install": ("gent_core._cli.install", "install plugins into the environment gent runs in"),
    "uninstall": ("gent_core._cli.uninstall", "uninstall plugins from gent's environment"),
    "tools": ("gent_core._cli.tools", "list installed tools, or show one tool's schema"),
    "call": ("gent_core._cli.call", "run one tool from the shell, without a model"),
    "new-plugin": ("gent_core._cli.new_plugin", "start a plugin package from the template"),
    "completion": (
        "gent_core._cli.completion",
        "print the shell completion script (bash, zsh, fish)",
    ),
}

_EXAMPLES = """\
examples:
  gent run "What is 17 * 23?"             # the built-in agent on the local model
  gent run agent.yaml "What is 17 * 23?"  # an agent config file
  gent describe -T read_file --format markdown
  gent install gent-mcp                   # add a plugin to gent's own environment
  gent plugins
  gent COMMAND --help                     # every command's options, with examples

Every command takes -v/--verbose and -q/--quiet (counted: -vv for debug logs) and --no-color
(NO_COLOR and FORCE_COLOR are honoured), before or after the command's name.
Documentation: docs/index.md (the tutorial is docs/tutorial.md).
"""


def plugin_commands() -> dict[str, tuple[str, str]]:
    """The subcommands supplied by installed plugins: ``{name: (module, help)}``.

    A name taken by a built-in command, or supplied by several plugins, is left out with a
    warning naming the plugins.
    """
    from gent_core._plugins.manager import get_plugin_manager
    from gent_core._plugins.registry import Registry
    from gent_core.errors import PluginLoadError

    try:
        registry = Registry.from_plugin_manager(get_plugin_manager())
    except PluginLoadError as error:  # strict mode: the command that needs plugins reports it
        logger.warning("plugin commands are unavailable: %s", error)
        return {}
    commands: dict[str, tuple[str, str]] = {}
    by_name: dict[str, list[str]] = {}
    for entry in registry.entries("command"):
        by_name.setdefault(entry.name, []).append(entry.plugin)
    for entry in registry.entries("command"):
        plugins = by_name[entry.name]
        if entry.name in SUBCOMMANDS:
            logger.warning(
                "plugin %s supplies the command %r, which is a built-in command; ignored",
                entry.plugin,
                entry.name,
            )
        elif len(plugins) > 1:
            if entry.plugin == plugins[0]:
                logger.warning(
                    "the command %r is supplied by several plugins (%s); none is added",
                    entry.name,
                    ", ".join(plugins),
                )
        else:
            commands[entry.name] = (entry.factory.module, entry.factory.help)
    return commands


def _import_command(name: str, module_name: str) -> ModuleType | None:
    try:
        return importlib.import_module(module_name)
    except Exception as error:  # noqa: BLE001 - a broken plugin must not break the CLI
        logger.warning(
            "the command %r is unavailable: its module %s failed to import: %s: %s",
            name,
            module_name,
            type(error).__name__,
            error,
        )
        return None


_OUTPUT_OPTIONS = (
    (("-v", "--verbose"), "count", "more log messages (-vv: debug)"),
    (("-q", "--quiet"), "count", "only errors (and, for gent run, the answer alone)"),
    (("--no-color",), "store_true", "no ANSI colours (as NO_COLOR=1)"),
)


def _add_output_options(
    parser: argparse.ArgumentParser, *, prefix: str = "", nested: bool = False
) -> None:
    """``-v``, ``-q`` and ``--no-color`` on ``parser`` and its own subcommands (``gent tools
    show``), skipping any option a (plugin) command defines itself.

    Below the first level the defaults are suppressed, so ``gent tools -v show NAME`` keeps
    the ``-v`` given before ``show``.
    """
    taken = set(parser._option_string_actions)
    group = parser.add_argument_group("output")
    for flags, action, help_text in _OUTPUT_OPTIONS:
        free = [flag for flag in flags if flag not in taken]
        if free:
            dest = prefix + flags[-1].lstrip("-").replace("-", "_")
            default = argparse.SUPPRESS if nested else None
            group.add_argument(*free, dest=dest, action=action, help=help_text, default=default)
    for sub_action in parser._actions:
        if isinstance(sub_action, argparse._SubParsersAction):
            for subparser in dict.fromkeys(sub_action.choices.values()):
                _add_output_options(subparser, nested=True)


def build_parser(*, with_plugins: bool = True) -> argparse.ArgumentParser:
    """Build the argument parser with every subcommand (plugins' too, unless told not to)."""
    parser = argparse.ArgumentParser(
        prog="gent",
        description="gent: LLM agents that call tools through text.",
        epilog=_EXAMPLES,
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"gent {__version__}")
    _add_output_options(parser, prefix="global_")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands = dict(SUBCOMMANDS)
    if with_plugins:
        commands.update(plugin_commands())
    for name, (module_name, help_text) in commands.items():
        module = _import_command(name, module_name)
        if module is None:
            continue
        sub = subparsers.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(_module=module_name)
        module.add_arguments(sub)
        _add_output_options(sub)
    return parser


def _count(args: argparse.Namespace, name: str) -> int:
    value = getattr(args, name, 0)
    return value if isinstance(value, int) else 0


def _settle_output_options(args: argparse.Namespace) -> None:
    """Combine the global and the command's ``-v``/``-q``/``--no-color`` into
    ``args.verbosity`` (``-v`` count minus ``-q`` count) and ``args.no_color``.
    """
    verbose = _count(args, "global_verbose") + _count(args, "verbose")
    quiet = _count(args, "global_quiet") + _count(args, "quiet")
    args.verbosity = verbose - quiet
    args.no_color = bool(getattr(args, "global_no_color", False)) or (
        getattr(args, "no_color", False) is True
    )


def _parse(parser: argparse.ArgumentParser, arguments: Sequence[str]) -> argparse.Namespace:
    """Parse ``arguments``; words after options go to a command's list of positional words
    when the command says so (``gent run CONFIG -m openai TASK``), which argparse alone
    refuses.

    A command module names that list in ``INTERMIXED_POSITIONALS`` (the ``dest``).
    """
    args, extra = parser.parse_known_args(arguments)
    if not extra:
        return args
    module = sys.modules.get(getattr(args, "_module", ""), None)
    dest = getattr(module, "INTERMIXED_POSITIONALS", None) if module is not None else None
    if dest is None or any(word.startswith("-") for word in extra):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    setattr(args, dest, [*getattr(args, dest), *extra])
    return args


def _guess_verbosity(arguments: Sequence[str]) -> int:
    """The verbosity the arguments ask for, read before parsing them (so the warnings of
    building the parser, such as a plugin command that fails to import, follow it too).
    """
    verbosity = 0
    for argument in arguments:
        if argument == "--":
            break
        if argument in ("--verbose", "--quiet"):
            verbosity += 1 if argument == "--verbose" else -1
        elif len(argument) > 1 and argument[0] == "-" and set(argument[1:]) <= {"v"}:
            verbosity += len(argument) - 1
        elif len(argument) > 1 and argument[0] == "-" and set(argument[1:]) <= {"q"}:
            verbosity -= len(argument) - 1
    return verbosity


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``gent`` command and return its exit code."""
    from gent_core._cli.logs import logging_for

    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["__complete"]:  # the shell asks for completions (gent completion)
        from gent_core._cli.completion import complete

        return complete(arguments[1:], build_parser)
    with logging_for(_guess_verbosity(arguments)) as log_handler:
        # ``gent --version`` needs no plugin.
        with_plugins = arguments[:1] != ["--version"]
        parser = build_parser(with_plugins=with_plugins)
        args = _parse(parser, arguments)
        _settle_output_options(args)
        log_handler.set_verbosity(args.verbosity)
        if args.command is None:
            parser.print_help()
            return 2
        module = importlib.import_module(args._module)
        from gent_core._cli.interrupt import EXIT_INTERRUPTED, leave_now

        try:
            code: int = module.run(args)
        except KeyboardInterrupt:  # a command without its own handling (loading, describe)
            sys.stderr.write(f"\ngent {args.command}: interrupted\n")
            code = EXIT_INTERRUPTED
        except BrokenPipeError:  # the reader went away (``gent tools | head``): not an error
            import contextlib
            import os

            # Python flushes stdout again at exit; point it at devnull so that cannot fail too.
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
    if code == EXIT_INTERRUPTED and argv is None:
        # gent owns the process (console script, python -m gent_core): leave at once.
        leave_now(code)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
