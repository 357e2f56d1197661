"""Entry point of the ``gent`` command: argument parsing and dispatch to subcommands.

Every command, built-in or not, comes through the ``gent_register_commands`` hook (see
:mod:`gent_core._cli.commands`): gent-core's own plugin supplies the built-in ones. The parser
lists each command from its :class:`~gent_core.Command` (name and one line of help) and
imports and configures a command's module only when that command is chosen, so ``gent
--help`` imports no command. A command whose module fails to import is reported when it is
asked for; every other command keeps working.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from gent_core import __version__
from gent_core._cli.helpformat import HelpFormatter
from gent_core._docs_url import docs_url

if TYPE_CHECKING:
    from gent_core._cli.commands import CommandEntry

__all__ = ["CommandUnavailableError", "build_parser", "main"]

_EXAMPLES = """\
examples:
  gent run "What is 17 * 23?"             # the built-in agent on the local model
  gent run agent.yaml "What is 17 * 23?"  # an agent config file
  gent chat agent.yaml                    # a conversation (!exit or Ctrl-D to end)
  gent describe -T read_file --format markdown
  gent install ./plugins/gent-mcp         # add a plugin to gent's own environment
  gent plugins
  gent help COMMAND                       # a command's options and examples (or: COMMAND --help)

Every command takes -v/--verbose and -q/--quiet (counted: -vv for debug logs) and --no-color
(NO_COLOR and FORCE_COLOR are honoured), before or after the command's name.
Documentation: {docs} (the tutorial: {tutorial}).
"""


class CommandUnavailableError(Exception):
    """A command's module failed to import (or to add its arguments): the message says which
    command, which module and why.
    """


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


class _Parser(argparse.ArgumentParser):
    """An argument parser whose unknown-command error suggests the closest command."""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if (
            isinstance(action, argparse._SubParsersAction)
            and action.choices is not None
            and value not in action.choices
        ):
            import difflib

            from gent_core._plugins.available import install_hint

            names = [str(name) for name in action.choices]
            close = difflib.get_close_matches(str(value), names, n=1, cutoff=0.6)
            supplied = install_hint("command", str(value))
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            hint = f" ({supplied})" if supplied else hint
            raise argparse.ArgumentError(
                action, f"unknown command {value!r}{hint}; commands: {', '.join(names)}"
            )
        super()._check_value(action, value)


class _PendingParser:
    """What ``add_parser`` makes for a command (as the subparsers' ``parser_class``): the
    arguments of its parser, which :class:`_CommandParsers` builds when it is looked up, so
    ``gent --help`` lists every command without building a parser for each.
    """

    def __init__(self, **kwargs: Any) -> None:
        self.kwargs = kwargs


class _CommandParsers(dict[str, Any]):
    """The subparsers of ``gent``'s commands, each built and configured (its module
    imported, its arguments added) the first time argparse or the completion looks it up by
    name.
    """

    def __init__(self, commands: Mapping[str, CommandEntry]) -> None:
        super().__init__()
        self._commands = commands

    def __getitem__(self, name: str) -> _Parser:
        parser = super().__getitem__(name)
        if isinstance(parser, _PendingParser):
            entry = self._commands[name]
            parser = _Parser(**parser.kwargs)
            parser.set_defaults(_module=entry.module)
            _configure(entry, parser)
            super().__setitem__(name, parser)
        assert isinstance(parser, _Parser)
        return parser


def _configure(entry: CommandEntry, parser: argparse.ArgumentParser) -> None:
    """Import ``entry``'s module and let it add its arguments to ``parser``.

    Raises:
        CommandUnavailableError: When the module fails to import or to add its arguments.
    """
    try:
        module = importlib.import_module(entry.module)
        module.add_arguments(parser)
    except Exception as error:  # a broken plugin must not break the CLI: said, not raised
        raise CommandUnavailableError(
            f"the command {entry.name!r} is unavailable: its module {entry.module} failed to "
            f"load: {type(error).__name__}: {error}"
        ) from error
    _add_output_options(parser)


def build_parser(*, with_plugins: bool = True) -> argparse.ArgumentParser:
    """Build the argument parser with every command (plugins' too, unless told not to).

    Only the names and one-line helps of the commands are read here; a command's own parser
    is configured when it is looked up (see :class:`_CommandParsers`).
    """
    from gent_core._cli.commands import find_commands

    parser = _Parser(
        prog="gent",
        description="gent: LLM agents that call tools through text.",
        epilog=_EXAMPLES.format(docs=docs_url(), tutorial=docs_url("tutorial.md")),
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"gent {__version__}")
    _add_output_options(parser, prefix="global_")
    # add_parser makes a _PendingParser (not a parser: typeshed wants one, hence the cast);
    # _CommandParsers builds the real parser of a command when it is looked up.
    subparsers = parser.add_subparsers(
        dest="command", metavar="COMMAND", parser_class=cast(Any, _PendingParser)
    )
    commands = find_commands(with_plugins=with_plugins)
    lazy = _CommandParsers(commands)
    subparsers._name_parser_map = lazy
    subparsers.choices = lazy
    for name, entry in commands.items():
        subparsers.add_parser(name, help=entry.help, description=entry.help)
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
    try:
        args, extra = parser.parse_known_args(arguments)
    except CommandUnavailableError as error:
        parser.error(str(error))
    if not extra:
        return args
    module = sys.modules.get(getattr(args, "_module", ""), None)
    dest = getattr(module, "INTERMIXED_POSITIONALS", None) if module is not None else None
    if dest is None or any(word.startswith("-") and word != "-" for word in extra):
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
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments == ["--version"]:  # answered before anything is loaded, as argparse would
        sys.stdout.write(f"gent {__version__}\n")
        raise SystemExit(0)
    from gent_core._cli.logging_setup import logging_for

    if arguments[:1] == ["__complete"]:  # the shell asks for completions (gent completion)
        from gent_core._cli.completion import complete

        return complete(arguments[1:], build_parser)
    with logging_for(_guess_verbosity(arguments)) as log_handler:
        # ``gent --version ...`` needs no plugin.
        parser = build_parser(with_plugins=arguments[:1] != ["--version"])
        args = _parse(parser, arguments)
        _settle_output_options(args)
        log_handler.set_verbosity(args.verbosity)
        if args.command is None:
            parser.print_help()
            return 2
        from gent_core._cli import signals

        if argv is None:  # gent owns the process: a signal during its exit is handled too
            signals.guard_exit(active=False)
        try:
            with signals.stop_signals():  # SIGTERM and SIGHUP stop a command as Ctrl-C does
                code = _run_command(args)
                if argv is None:  # from here on a stop signal is noted, never raised
                    signals.guard_exit(active=True)
        except KeyboardInterrupt:  # a stop signal after the command, before the guard
            sys.stderr.write("\ngent: interrupted\n")
            code = signals.EXIT_INTERRUPTED
            if argv is None:
                signals.guard_exit(active=True)
        except BrokenPipeError:  # the reader went away (``gent tools | head``): not an error
            import contextlib
            import os

            # Python flushes stdout again at exit; point it at devnull so that cannot fail too.
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
    interrupted = code == signals.EXIT_INTERRUPTED
    code = signals.exit_status(code)  # 128 + the signal that stopped it: 130, 143, 129
    # An interrupted command went through the interrupt handling (its own, or the one in
    # _run_command), which is imported then: a command that never loaded it needs no quick exit.
    interrupt = sys.modules.get("gent_core._cli.interrupt")
    if interrupt is not None and interrupted and argv is None:
        # gent owns the process (console script, python -m gent_core): leave at once.
        interrupt.leave_now(code)
    return code


def _run_command(args: argparse.Namespace) -> int:
    """Run the chosen command; a stop signal it does not handle itself (while its config
    loads, in ``describe``) is one line and :data:`~gent_core._cli.signals.EXIT_INTERRUPTED`.
    """
    import contextlib

    from gent_core._cli.signals import EXIT_INTERRUPTED

    module = importlib.import_module(args._module)
    try:
        code: int = module.run(args)
    except KeyboardInterrupt:
        with contextlib.suppress(OSError):  # a terminal that hung up (SIGHUP) takes nothing
            sys.stderr.write(f"\ngent {args.command}: interrupted\n")
        code = EXIT_INTERRUPTED
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
