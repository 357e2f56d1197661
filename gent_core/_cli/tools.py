"""``gent tools``: the installed tools; ``gent tools show NAME``: one tool in full.

``gent tools`` lists every tool the installed plugins supply, with its plugin, arguments and
description; ``--config CONFIG`` adds the tools of that config's toolsets (its MCP servers are
started to list them, then stopped). ``--json`` prints strict JSON with each tool's full
argument schema.

``gent tools show NAME`` prints the tool's JSON Schema and an example call written in the
syntax of each installed tool chain (by the chain itself: ``ToolChain.format_calls``).

Exit codes: 0; 2 for an unknown tool, a bad config, or a toolset that cannot be opened.
"""

from __future__ import annotations

import argparse
from typing import Any

from gent_core._cli.helpformat import HelpFormatter
from gent_core._cli.interrupt import run_command
from gent_core._cli.output import Output
from gent_core._cli.table import aligned_table
from gent_core._cli.toolsource import ToolInfo
from gent_core.errors import GentError, describe_error

__all__ = ["add_arguments", "example_calls", "render_table", "run"]

_EXAMPLES = """\
examples:
  gent tools
  gent tools show calculator             # its JSON Schema and an example call per chain
  gent tools --config agent.yaml --json  # with the tools of the config's MCP servers
"""

_DESCRIPTION_WIDTH = 72
_ARGUMENTS_WIDTH = 56


def _add_common(parser: argparse.ArgumentParser, default: Any) -> None:
    parser.add_argument(
        "--json", action="store_true", default=default, help="print strict JSON instead of text"
    )
    parser.add_argument(
        "--config",
        metavar="CONFIG",
        default=default,
        help="also the tools of this agent config's toolsets (its MCP servers are started to "
        "list them)",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``gent tools`` and its ``show`` subcommand."""
    parser.usage = "%(prog)s [-h] [--json] [--config CONFIG] [show NAME]"
    parser.epilog = _EXAMPLES
    parser.formatter_class = HelpFormatter
    _add_common(parser, None)
    parser.set_defaults(json=False)
    commands = parser.add_subparsers(dest="tools_command", metavar="show")
    show = commands.add_parser(
        "show",
        help="one tool's JSON Schema and an example call in each installed chain's syntax",
        description="Print one tool's JSON Schema and an example call in each installed tool "
        "chain's syntax.",
    )
    show.add_argument("name", metavar="NAME", help="the tool (plugin:name when ambiguous)")
    _add_common(show, argparse.SUPPRESS)  # given before or after 'show'


# --------------------------------------------------------------------------- listing


def _signature(info: ToolInfo) -> str:
    from gent_core.tools._describe import describe_arguments

    if info.tool is None:
        return "(needs options)"
    return _shortened(f"({describe_arguments(info.tool, descriptions=False)})", _ARGUMENTS_WIDTH)


def _shortened(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def _first_line(text: str) -> str:
    return _shortened(" ".join(text.strip().split("\n\n", 1)[0].split()), _DESCRIPTION_WIDTH)


def _source(info: ToolInfo) -> str:
    if info.toolset is not None:
        return f"toolset {info.toolset.split(' (', 1)[0]}"
    return info.plugin or "-"


def render_table(infos: list[ToolInfo]) -> str:
    """Render tools as an aligned table: name, plugin, arguments, description."""
    header = ("TOOL", "PLUGIN", "ARGUMENTS", "DESCRIPTION")
    rows = [
        (info.name, _source(info), _signature(info), _first_line(info.description))
        for info in infos
    ]
    return aligned_table(header, rows)


def _as_dict(info: ToolInfo) -> dict[str, Any]:
    from gent_core.tools._describe import describe_signature

    tool = info.tool
    return {
        "name": info.name,
        "plugin": info.plugin,
        "distribution": info.distribution,
        "toolset": info.toolset,
        "description": info.description,
        "signature": describe_signature(tool) if tool is not None else None,
        "parameters": info.parameters,
        "writes": tool.writes if tool is not None else None,
        "timeout": tool.timeout if tool is not None else None,
        "options": info.options,
        "error": info.error,
    }


# --------------------------------------------------------------------------- examples


def example_calls(info: ToolInfo, registry: Any) -> list[tuple[str, str | None, str | None]]:
    """An example call of ``info``'s tool in each installed tool chain's syntax.

    Returns:
        ``(chain name, the call as the chain writes it, or None; why it could not, or None)``
        for every installed chain, by name.
    """
    from gent_core.toolchain import ToolCall

    assert info.tool is not None
    examples: list[tuple[str, str | None, str | None]] = []
    for chain_name in registry.names("toolchain"):
        try:
            chain = registry.create("toolchain", chain_name, tools=[info.tool])
            calls = [call for call in chain.example_calls() if call.tool == info.tool.name]
            call = calls[0] if calls else ToolCall(info.tool.name, {}, "call_0")
            examples.append((chain_name, chain.format_calls([call]), None))
        except Exception as error:  # noqa: BLE001 - one broken chain must not hide the others
            examples.append((chain_name, None, describe_error(error)))
    return examples


def _show(info: ToolInfo, registry: Any, output: Output, as_json: bool) -> int:
    from gent_core._serialize import write_json

    if info.tool is None:
        output.error("gent tools show", f"tool {info.name!r} {info.error}")
        return 2
    examples = example_calls(info, registry)
    if as_json:
        data = _as_dict(info)
        data["examples"] = {
            chain: {"call": call, "error": error} for chain, call, error in examples
        }
        output.json(data)
        return 0
    output.line(info.name)
    if info.toolset:
        output.line(f"toolset: {info.toolset}")
    else:
        output.line(
            f"plugin: {info.plugin}" + (f" ({info.distribution})" if info.distribution else "")
        )
    if info.description.strip():
        output.line(f"\n{info.description.strip()}")
    flags = [flag for flag, on in (("changes files or state", info.tool.writes),) if on]
    if info.tool.timeout is not None:
        flags.append(f"timeout {info.tool.timeout:g} s")
    if info.options:
        flags.append(f"options: {', '.join(info.options)}")
    if flags:
        output.line(f"({'; '.join(flags)})")
    output.line("\nArguments (JSON Schema):")
    output.line(write_json(info.tool.parameters, indent=2))
    if not examples:
        output.line("\nNo tool chain is installed to write an example call.")
    for chain, call, error in examples:
        output.line(f"\nExample call, tool chain {chain}:")
        output.line(call if call is not None else f"(cannot be written: {error})")
    return 0


# --------------------------------------------------------------------------- command


def _find(infos: list[ToolInfo], name: str) -> ToolInfo | None:
    for info in infos:
        if info.name == name or (info.entry is not None and info.entry.qualified_name == name):
            return info
    return None


async def _collect(args: argparse.Namespace, output: Output) -> int:
    from gent_core._cli.toolsource import agent_tools, installed_tools, opened_agent
    from gent_core._config import load_config
    from gent_core._plugins.manager import get_plugin_manager
    from gent_core._plugins.registry import Registry

    manager = get_plugin_manager()
    registry = Registry.from_plugin_manager(manager)
    infos = installed_tools(registry, manager)
    if args.config:
        loaded = load_config(args.config)
        output.redact = loaded.redact
        async with opened_agent(loaded) as agent:
            infos += agent_tools(agent)
            return _report(args, infos, registry, output)
    return _report(args, infos, registry, output)


def _report(args: argparse.Namespace, infos: list[ToolInfo], registry: Any, output: Output) -> int:
    if args.tools_command == "show":
        info = _find(infos, args.name)
        if info is None:
            import difflib

            names = [info.name for info in infos]
            from gent_core._plugins.available import install_hint

            close = difflib.get_close_matches(args.name, names, n=1, cutoff=0.5)
            supplied = install_hint("tool", args.name)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            hint = f" ({supplied})" if supplied else hint
            output.error(
                "gent tools show",
                f"no tool named {args.name!r}{hint}; installed tools: {', '.join(names) or 'none'}",
            )
            return 2
        return _show(info, registry, output, args.json)
    if args.json:
        output.json([_as_dict(info) for info in infos])
    elif infos:
        output.line(render_table(infos))
    else:
        output.line("No tools are installed (a tool package such as gent-tools-basic adds some).")
    return 0


def run(args: argparse.Namespace) -> int:
    """List the tools, or show one."""
    output = Output()
    command = "gent tools show" if args.tools_command == "show" else "gent tools"
    try:
        return run_command(_collect(args, output))
    except GentError as error:
        output.failure(command, error)
        return 2
    except KeyboardInterrupt:
        return 130
