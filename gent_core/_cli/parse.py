"""``gent parse``: split a model output into sections (and tool calls) and print them as JSON.

Every error is one ``gent parse: error: ...`` line written for the person running it (what
was wrong and where); for tool calls that cannot be read, the text an agent would send the
model follows, indented, as detail.

Exit codes: 0 parsed; 1 the text could not be parsed (the error on stderr); 2 bad usage
(unknown format or tool chain, unreadable file, or input that is not UTF-8 text: binary data,
invalid bytes).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from gent_core._cli.helpformat import HelpFormatter
from gent_core._cli.output import Output
from gent_core.errors import GentError, describe_error

if TYPE_CHECKING:
    from gent_core.sections import ParseResult
    from gent_core.toolchain import ToolChain

__all__ = ["add_arguments", "run"]

_EXAMPLES = """\
examples:
  gent parse --format xml --sections thinking,action,answer output.txt
  gent parse --format markdown --sections thinking,action,answer --toolchain yaml output.md
  model-cli ... | gent parse --format xml --sections answer -
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``gent parse``."""
    parser.epilog = _EXAMPLES
    parser.formatter_class = HelpFormatter
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


class _NotText(Exception):
    """The input is not UTF-8 text; the message says why and where."""


def _decode(data: bytes) -> str:
    """Decode ``data`` as UTF-8 text (a byte-order mark is dropped).

    Raises:
        _NotText: For invalid UTF-8, or a NUL byte (binary data, not a model output).
    """
    nul = data.find(b"\x00")
    if nul >= 0:
        raise _NotText(f"it looks like binary data (a NUL byte at offset {nul}), not text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise _NotText(
            f"it is not UTF-8 text (invalid byte 0x{data[error.start]:02x} at offset "
            f"{error.start}, line {line})"
        ) from None


def _read(path: str) -> str:
    """Read the model output: the bytes of the file (or stdin), decoded as strict UTF-8.

    Raises:
        OSError: When the file cannot be read.
        _NotText: When it is not UTF-8 text.
    """
    if path != "-":
        with open(path, "rb") as file:
            return _decode(file.read())
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is not None:
        return _decode(buffer.read())
    text = sys.stdin.read()  # a text stream without bytes underneath (embedding, tests)
    try:
        return _decode(text.encode("utf-8"))
    except UnicodeEncodeError as error:  # undecodable bytes smuggled in as surrogates
        raise _NotText(f"it is not UTF-8 text (invalid data at offset {error.start})") from None


def _plugin_failure(kind: str, name: str, error: Exception) -> str:
    return f"the {kind} {name!r} failed on this text: {describe_error(error)}"


COMMAND = "gent parse"


def _usage_error(message: str, cause: BaseException | None = None) -> int:
    Output().error(COMMAND, message, cause=cause)
    return 2


def _model_detail(error: GentError) -> str:
    """The text an agent would send the model about ``error``, indented under a heading."""
    lines = error.model_message.splitlines() or [""]
    return "  what an agent would tell the model:\n" + "\n".join(f"    {line}" for line in lines)


def run(args: argparse.Namespace) -> int:
    """Parse the file and print the sections (and calls) as JSON."""
    from gent_core._plugins.manager import get_plugin_manager
    from gent_core._plugins.registry import Registry

    output = Output()  # model text may hold escape sequences: shown, never obeyed
    sections = [name.strip() for name in args.sections.split(",") if name.strip()]
    if not sections:
        return _usage_error("--sections needs at least one name")
    source = "standard input" if args.file == "-" else args.file
    try:
        text = _read(args.file)
    except OSError as error:
        return _usage_error(f"cannot read {source}: {error.strerror or error}")
    except _NotText as problem:
        return _usage_error(
            f"cannot parse {source}: {problem}; gent parse reads a model output as UTF-8 text"
        )
    registry = Registry.from_plugin_manager(get_plugin_manager())
    try:
        text_format = registry.create("format", args.format)
        chain = registry.create("toolchain", args.toolchain) if args.toolchain else None
    except GentError as error:
        return _usage_error(str(error), error)
    if chain is not None and args.action_section not in sections:
        sections.append(args.action_section)
    try:
        parsed = text_format.parse(text, sections)
    except GentError as error:
        output.error(COMMAND, f"cannot parse {source}: {error}")
        return 1
    except Exception as error:  # noqa: BLE001 - a format plugin bug: reported, no traceback
        output.error(COMMAND, _plugin_failure("format", args.format, error))
        return 1
    truncated = parsed.truncated
    if truncated is not None:
        note = f"the last section ({truncated.name}) was never closed: the output was cut off"
        if args.strict:
            output.error(COMMAND, f"{note} (--strict)")
            return 1
        output.line(f"{COMMAND}: warning: {note}", err=True)
    if chain is None:
        output.json(parsed.as_dict())
        return 0
    return _print_calls(parsed, chain, args, output)


def _print_calls(
    parsed: ParseResult, chain: ToolChain, args: argparse.Namespace, output: Output
) -> int:
    """Print the sections and the calls the tool chain reads in the action sections; 1 when
    it cannot read them.
    """
    calls: list[dict[str, Any]] = []
    for content in parsed.untrimmed(args.action_section):  # chains read the text as written
        if not content.strip():
            continue
        try:
            calls.extend({"tool": c.tool, "args": c.args} for c in chain.parse(content))
        except GentError as error:
            output.error(
                COMMAND,
                f"the tool calls of the {args.action_section} section cannot be read "
                f"({args.toolchain} tool chain): {error}",
            )
            output.line(_model_detail(error), err=True)
            return 1
        except Exception as error:  # noqa: BLE001 - a tool-chain plugin bug: reported
            output.error(COMMAND, _plugin_failure("tool chain", args.toolchain, error))
            return 1
    output.json({"sections": parsed.as_dict(), "calls": calls})
    return 0
