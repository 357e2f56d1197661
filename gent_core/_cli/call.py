"""``gent call NAME [ARGS]``: run one tool from the shell, without a model.

The call goes through the same execution engine as an agent's calls (the installed plugins'
lifecycle hooks, argument validation and coercion, the timeout, error results), in a working
directory (``--cwd``, the current directory by default). Arguments are a JSON object, and/or
``--arg key=value`` pairs (a value is read as JSON when it parses, else as a string). A tool
class that takes options is built with ``--option key=value`` pairs. ``--config CONFIG``
calls a tool of that agent instead, its toolsets' tools included (MCP servers are started for
the call), with the config's working directory, limits and approval policy.

It prints the tool's output (a string as is, anything else as JSON) and a summary of the
other channels (images, clipboard texts and files); ``--json`` prints one strict JSON object.

Exit codes: 0 the tool succeeded; 1 it returned an error (its model-facing message is
printed); 2 bad usage (unknown tool, arguments that are not JSON, bad options, bad config).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gent_core._bounded import read_json
from gent_core._cli.errors import UsageError
from gent_core._cli.helpformat import HelpFormatter
from gent_core._cli.interrupt import run_command
from gent_core._cli.output import Output
from gent_core.errors import GentError, InputSyntaxError

if TYPE_CHECKING:
    from gent_core._plugins.registry import Registry
    from gent_core.context import ExecutionContext
    from gent_core.formats import TextFormat
    from gent_core.toolchain import ToolChain
    from gent_core.tools.base import Tool
    from gent_core.tools.result import ToolResult

__all__ = ["UsageError", "add_arguments", "parse_arguments", "parse_pairs", "run"]

COMMAND = "gent call"

_EXAMPLES = """\
examples:
  gent call calculator '{"expression": "17 * 23"}'
  gent call current_time --arg timezone=Europe/Paris
  gent call read_file --arg path=README.md --cwd ~/project --json
  gent call git:git_status --config agent.yaml   # a tool of the config's MCP server
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``gent call``."""
    parser.epilog = _EXAMPLES
    parser.formatter_class = HelpFormatter
    parser.add_argument("name", metavar="NAME", help="the tool (plugin:name when ambiguous)")
    parser.add_argument(
        "arguments",
        metavar="ARGS",
        nargs="?",
        help='the arguments as a JSON object, e.g. \'{"expression": "6 * 7"}\'',
    )
    parser.add_argument(
        "--arg",
        metavar="KEY=VALUE",
        action="append",
        default=[],
        help="one argument (repeatable); the value is read as JSON when it parses, else as "
        "a string; it wins over the same key in ARGS",
    )
    parser.add_argument(
        "--option",
        metavar="KEY=VALUE",
        action="append",
        default=[],
        help="an option of the tool's class (repeatable), as in the config's {name: ..., KEY: ...}",
    )
    parser.add_argument(
        "--cwd", metavar="DIR", help="the working directory (default: the current directory)"
    )
    parser.add_argument(
        "--timeout", metavar="SECONDS", type=float, help="seconds the call may take (default 60)"
    )
    parser.add_argument(
        "--config",
        metavar="CONFIG",
        help="call a tool of this agent config (its toolsets' tools included)",
    )
    parser.add_argument("--json", action="store_true", help="print one strict JSON object")


# --------------------------------------------------------------------------- arguments


def _value(text: str, source: str) -> Any:
    """``text`` read as JSON when it is JSON, else the text itself; JSON beyond gent's bounds
    (nested too deeply, too many digits) is an error, not a string.
    """
    try:
        return read_json(text, source=source)
    except InputSyntaxError:
        return text


def parse_pairs(pairs: list[str], flag: str) -> dict[str, Any]:
    """``["a=1", "b=x"]`` -> ``{"a": 1, "b": "x"}`` (values read as JSON when they parse,
    within gent's bounds: :func:`gent_core._bounded.read_json`).

    Raises:
        UsageError: A pair without ``=`` or with an empty key.
        InputBoundsError: A JSON value beyond the bounds.
    """
    from gent_core._textscan import quote_start

    parsed: dict[str, Any] = {}
    for pair in pairs:
        key, separator, value = pair.partition("=")
        if not separator or not key.strip():
            raise UsageError(f"{flag} takes KEY=VALUE, got {quote_start(pair)!r}")
        parsed[key.strip()] = _value(value, f"{flag} {quote_start(key.strip(), 40)}")
    return parsed


def _arguments(args: argparse.Namespace) -> dict[str, Any]:
    return parse_arguments(args.arguments, args.arg)


def parse_arguments(text: str | None, pairs: list[str]) -> dict[str, Any]:
    """The arguments of ``gent call``: the JSON object ``text`` (ARGS, or ``None``), then the
    ``--arg`` ``pairs`` on top (see :func:`parse_pairs`); read within gent's bounds.

    Raises:
        UsageError: ``text`` is not a JSON object, or a pair has no ``=``.
        InputBoundsError: A value is beyond gent's bounds (nested too deeply, an integer of
            too many digits, a number too large to be finite).
    """
    arguments: dict[str, Any] = {}
    if text is not None:
        try:
            given = read_json(text, source="ARGS")
        except InputSyntaxError as error:
            raise UsageError(
                f"ARGS is {error.problem}; give a JSON object such as "
                '\'{"expression": "6 * 7"}\', or use --arg KEY=VALUE'
            ) from None
        if not isinstance(given, dict):
            raise UsageError(
                f"ARGS must be a JSON object of argument names to values, got "
                f"{type(given).__name__}"
            )
        arguments.update(given)
    arguments.update(parse_pairs(pairs, "--arg"))
    return arguments


# --------------------------------------------------------------------------- the tool


def _installed_tool(registry: Registry, name: str, options: dict[str, Any]) -> Tool:
    from gent_core._config.options import check_options
    from gent_core.tools.base import Tool

    entry = registry.get("tool", name)
    factory = entry.factory
    if isinstance(factory, Tool):
        if options:
            raise UsageError(f"tool {name!r} takes no options (it is a ready tool object)")
        return factory
    validated, problems = check_options(factory, options)
    if problems:
        listed = "; ".join(f"{'.'.join(map(str, path))}: {message}" for path, message in problems)
        raise UsageError(f"bad --option for tool {name!r}: {listed}")
    tool = registry.create("tool", name, **(validated or {}))
    if not isinstance(tool, Tool):
        raise UsageError(f"tool {name!r}: its factory returned {type(tool).__name__}, not a Tool")
    return tool


def _engine(registry: Registry, tool: Tool) -> tuple[ToolChain, TextFormat]:
    """An installed tool chain holding ``tool`` and an installed format: the engine's parts."""
    chains, formats = registry.names("toolchain"), registry.names("format")
    if not chains or not formats:
        raise UsageError(
            "gent call runs tools through an installed tool chain and text format, and none "
            "is installed (install e.g. gent-json and gent-xml, or use --config)"
        )
    chain = registry.create("toolchain", chains[0], tools=[tool])
    text_format = registry.create("format", formats[0])
    return chain, text_format


async def _call(
    chain: ToolChain, text_format: TextFormat, context: ExecutionContext, name: str, args: Any
) -> ToolResult:
    from gent_core._execution import execute_calls
    from gent_core.toolchain import ToolCall

    outcome = await execute_calls(chain, [ToolCall(name, args, "call_0")], text_format, context)
    return outcome.results[0]


async def _run(args: argparse.Namespace, output: Output) -> ToolResult:
    from gent_core._plugins.manager import get_plugin_manager
    from gent_core._plugins.registry import Registry
    from gent_core.context import ExecutionContext, Limits

    arguments = _arguments(args)
    options = parse_pairs(args.option, "--option")
    cwd = Path(args.cwd).resolve() if args.cwd else None
    if cwd is not None:
        from gent_core._path_probe import probe_path

        probe = probe_path(cwd)
        if not probe.is_dir:
            state = "is not a directory" if probe.exists else probe.state
            raise UsageError(f"--cwd {args.cwd}: {state}; expected an existing directory")
    if args.config:
        if options:
            raise UsageError("--option cannot be used with --config (the config sets options)")
        from gent_core._cli.toolsource import opened_agent
        from gent_core._config import load_config

        loaded = load_config(args.config)
        output.redact = loaded.redact
        async with opened_agent(loaded) as agent:
            chain = agent.toolchain
            if chain is None or chain.get_tool(args.name) is None:
                names = ", ".join(tool.name for tool in chain.tools) if chain else ""
                raise UsageError(
                    f"the config has no tool named {args.name!r}; its tools: {names or 'none'}"
                )
            limits = agent.limits
            if args.timeout is not None:
                limits.tool_timeout = args.timeout
            context = ExecutionContext(
                working_directory=cwd or agent.working_directory,
                limits=limits,
                plugin_manager=agent.run_hooks(),
            )
            return await _call(chain, agent.format, context, args.name, arguments)
    manager = get_plugin_manager()
    registry = Registry.from_plugin_manager(manager)
    tool = _installed_tool(registry, args.name, options)
    chain, text_format = _engine(registry, tool)
    limits = Limits()
    if args.timeout is not None:
        limits.tool_timeout = args.timeout
    context = ExecutionContext(
        working_directory=cwd or Path.cwd(), limits=limits, plugin_manager=manager
    )
    return await _call(chain, text_format, context, tool.name, arguments)


# --------------------------------------------------------------------------- printing


def _as_dict(name: str, result: ToolResult) -> dict[str, Any]:
    error = result.error
    return {
        "tool": name,
        "status": result.status,
        "output": result.output,
        "error": error.model_message if error is not None else None,
        "error_type": type(error).__name__ if error is not None else None,
        "media": [
            {"media_type": part.media_type, "bytes": len(part.data), "url": part.url}
            for part in result.media
        ],
        "clipboard_text": list(result.clipboard_text),
        "clipboard_files": [str(path) for path in result.clipboard_files],
    }


def _print(result: ToolResult, output: Output) -> None:
    from gent_core._serialize import write_json

    if result.output is not None:
        text = (
            result.output if isinstance(result.output, str) else write_json(result.output, indent=2)
        )
        output.line(text)
    notes = [
        f"image: {part.media_type}, {len(part.data)} bytes" + (f", {part.url}" if part.url else "")
        for part in result.media
    ]
    notes += [
        f"clipboard text: {len(text)} characters: {text[:60]!r}" + ("…" if len(text) > 60 else "")
        for text in result.clipboard_text
    ]
    notes += [f"clipboard file: {path}" for path in result.clipboard_files]
    if notes:
        output.line("")
        for note in notes:
            output.line(f"[{note}]")


def run(args: argparse.Namespace) -> int:
    """Run the tool; print its result."""
    output = Output()
    try:
        result = run_command(_run(args, output))
    except GentError as error:
        output.failure(COMMAND, error)
        return 2
    except KeyboardInterrupt:
        return 130
    if args.json:
        output.json(_as_dict(args.name, result))
    elif result.ok:
        _print(result, output)
    else:
        assert result.error is not None
        _print(result, output)
        output.line(f"{COMMAND}: tool error: {result.error.model_message}", err=True)
    return 0 if result.ok else 1
