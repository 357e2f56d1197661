"""``gent parse``: split a model output into sections (and tool calls) and print them as JSON.

Exit codes: 0 parsed; 1 the text could not be parsed (the error on stderr; for tool calls,
the model-facing error text); 2 bad usage (unknown format or tool chain, unreadable file).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from gent_core.errors import GentError
from gent_core.serialize import write_json

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``gent parse``."""
    parser.add_argument("file", metavar="FILE", help="the model output to parse, or - for stdin")
    parser.add_argument(
        "--format", required=True, metavar="NAME", help="the format plugin: xml, markdown..."
    )
    parser.add_argument(
        "--sections",
        required=True,
        metavar="A,B",
        help="comma-separated section names to recognise (e.g. thinking,action,answer)",
    )
    parser.add_argument(
        "--toolchain",
        metavar="NAME",
        help="also read the tool calls of the action section with this tool chain (json, yaml)",
    )
    parser.add_argument(
        "--action-section",
        default="action",
        metavar="NAME",
        help="the section holding tool calls (default: action)",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="treat an unclosed (cut off) last section as an error",
    )


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as file:
        return file.read()


def _usage_error(message: str) -> int:
    print(f"gent parse: error: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """Parse the file and print the sections (and calls) as JSON."""
    from gent_core.plugins.manager import get_plugin_manager
    from gent_core.plugins.registry import Registry

    sections = [name.strip() for name in args.sections.split(",") if name.strip()]
    if not sections:
        return _usage_error("--sections needs at least one name")
    try:
        text = _read(args.file)
    except OSError as error:
        return _usage_error(f"cannot read {args.file}: {error.strerror or error}")
    registry = Registry.from_plugin_manager(get_plugin_manager())
    try:
        text_format = registry.create("format", args.format)
        chain = registry.create("toolchain", args.toolchain) if args.toolchain else None
    except GentError as error:
        return _usage_error(str(error))
    if chain is not None and args.action_section not in sections:
        sections.append(args.action_section)
    try:
        parsed = text_format.parse(text, sections)
    except GentError as error:
        print(f"gent parse: {error}", file=sys.stderr)
        return 1
    truncated = parsed.truncated
    if truncated is not None:
        note = f"the last section ({truncated.name}) was never closed: the output was cut off"
        if args.strict:
            print(f"gent parse: {note}", file=sys.stderr)
            return 1
        print(f"gent parse: warning: {note}", file=sys.stderr)
    found = parsed.as_dict()
    if chain is None:
        print(write_json(found, indent=2))
        return 0
    calls: list[dict[str, Any]] = []
    for content in found.get(args.action_section, []):
        try:
            calls.extend({"tool": c.tool, "args": c.args} for c in chain.parse(content))
        except GentError as error:
            print(error.model_message, file=sys.stderr)
            return 1
    print(write_json({"sections": found, "calls": calls}, indent=2))
    return 0
