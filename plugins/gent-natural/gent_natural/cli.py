"""``gent convert``: convert a conversation between native tool calls and text.

Reads OpenAI chat messages (a JSON array, or JSONL with one message per line) from a file or
standard input and writes the converted conversation as a JSON array to standard output.
Problems that do not stop the conversion (a turn passed through unchanged, a call with bad
arguments) are reported on standard error; bad input exits with status 1 and a message
saying where it is and what is accepted.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gent_core import ComponentKind
    from gent_core.bounds import FileKind
    from gent_core.messages import Message

__all__ = ["InputError", "add_arguments", "read_messages", "run"]

_ACCEPTED = (
    "Accepted input: a JSON array of OpenAI chat messages, or JSONL (one message object per line)."
)


class InputError(Exception):
    """Input that cannot be converted; the message says where and what is accepted."""


def _limit(text: str) -> int | None:
    if text.strip().lower() in ("none", "0", "off"):
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number of characters, or 'none' for no limit, got {text!r}"
        ) from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {value}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``gent convert``.

    Long because it is a flat table: one ``add_argument`` per option, in the order ``--help``
    shows them.
    """
    parser.add_argument(
        "--to",
        required=True,
        choices=["text", "openai"],
        help="text: write tool turns as <tool_call>/<tool_response> text; openai: read the "
        "calls written in text into native tool_calls and tool messages",
    )
    parser.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE",
        help="a JSON array or JSONL file of OpenAI chat messages ('-' or nothing: stdin)",
    )
    options = parser.add_argument_group("options of --to text")
    options.add_argument(
        "--off",
        action="store_true",
        help="turn the transformation off: every message passes through unchanged",
    )
    options.add_argument(
        "--no-pretty-print-json",
        dest="pretty_print_json",
        action="store_false",
        help="write arguments and JSON results as they are, not indented",
    )
    options.add_argument(
        "--max-response-length",
        type=_limit,
        default=4000,
        metavar="N",
        help="cut results longer than N characters, with a note ('none': no limit; default 4000)",
    )
    options.add_argument(
        "--role-strategy",
        choices=["preserve", "always_user", "always_assistant", "by_content"],
        default="preserve",
        help="the role of each text message (by_content: user when it ends with a result)",
    )
    options.add_argument(
        "--metadata-strategy",
        choices=["last_wins", "first_wins", "combine"],
        default="last_wins",
        help="how the metadata (extra keys) of a turn's messages is merged",
    )
    both = parser.add_argument_group("options of both directions")
    both.add_argument(
        "--separator",
        default="---",
        help="the line between the calls of one message (default ---)",
    )
    both.add_argument(
        "--format",
        metavar="NAME",
        help="write/read calls as sections of this text format (xml, markdown...) instead "
        "of natural tags",
    )
    reading = parser.add_argument_group("options of --to openai")
    reading.add_argument(
        "--toolchain",
        metavar="NAME",
        help="also read this tool chain's action sections (needs --format), e.g. json",
    )
    reading.add_argument(
        "--roles",
        default="assistant",
        metavar="ROLES",
        help="comma-separated roles whose messages are read (default assistant; add user "
        "for text written with --role-strategy always_user or by_content)",
    )
    reading.add_argument(
        "--tools",
        default="",
        metavar="NAMES",
        help="comma-separated installed tools whose schemas the arguments are checked "
        "against (problems are reported, the calls kept)",
    )


def _conversation_file() -> FileKind:
    """``gent convert`` input: OpenAI chat messages as JSON or JSONL, at most 64 MiB
    (``GENT_MAX_CONVERSATION_SIZE`` changes it).
    """
    from gent_core.bounds import FileKind

    return FileKind("conversation file", "GENT_MAX_CONVERSATION_SIZE", 64 * 1024 * 1024)


def _read(path: str) -> tuple[str, str]:
    """The input text and how to name it in messages (at most the conversation file size
    limit, :func:`_conversation_file`).
    """
    from gent_core.bounds import read_file, read_stream

    conversation_file = _conversation_file()
    from gent_core.errors import InputError as BoundsError

    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            data = read_stream(sys.stdin.buffer, name, conversation_file)
        else:
            data = read_file(path, conversation_file)
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror or error}") from None
    except BoundsError as error:
        raise InputError(str(error)) from None
    try:
        return data.decode("utf-8-sig"), name
    except UnicodeDecodeError as error:
        raise InputError(
            f"{name} is not UTF-8 text (byte {data[error.start]:#04x} at offset {error.start})"
        ) from None


def _parse_json(text: str, name: str) -> tuple[list[Any], list[int]]:
    """The messages as data, and the line each starts on (for messages); read within gent's
    bounds (:func:`gent_core.bounds.read_json`).
    """
    from gent_core.bounds import read_json
    from gent_core.errors import InputError as BoundsError
    from gent_core.errors import InputSyntaxError

    def read(text: str, source: str) -> Any:
        try:
            return read_json(text, source=source)
        except InputSyntaxError as error:
            raise InputError(f"{error}. {_ACCEPTED}") from None
        except BoundsError as error:
            raise InputError(str(error)) from None

    stripped = text.lstrip()
    if not stripped:
        raise InputError(f"{name} is empty. {_ACCEPTED}")
    if stripped.startswith("["):
        data = read(text, name)
        if not isinstance(data, list):
            raise InputError(f"{name}: expected a JSON array of messages. {_ACCEPTED}")
        return data, []
    messages: list[Any] = []
    lines: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            messages.append(read(line, f"{name}, line {number}"))
            lines.append(number)
    return messages, lines


def _messages(data: list[Any], lines: list[int], name: str) -> list[Message]:
    from gent_natural.openai_messages import OpenAIMessageError, messages_from_openai

    try:
        return messages_from_openai(data)
    except OpenAIMessageError as error:
        where = f"{name}, line {lines[error.index]}: " if lines else f"{name}: "
        raise InputError(where + str(error)) from None


def read_messages(text: str, name: str) -> list[Message]:
    """The OpenAI chat messages in ``text`` (a JSON array, or JSONL with one message per
    line), read within gent's bounds (:func:`gent_core.bounds.read_json`).

    Args:
        text: The input.
        name: How to name the input in messages (``"standard input"``, a file name).

    Raises:
        InputError: Saying where the input is wrong and what is accepted.
    """
    data, lines = _parse_json(text, name)
    return _messages(data, lines, name)


def _component(kind: ComponentKind, name: str, **options: Any) -> Any:
    from gent_core import Registry, get_plugin_manager
    from gent_core.errors import GentError

    try:
        return Registry.from_plugin_manager(get_plugin_manager()).create(kind, name, **options)
    except GentError as error:
        raise InputError(str(error)) from None


def _convert(args: argparse.Namespace, messages: list[Message]) -> tuple[list[Message], Any]:
    text_format = _component("format", args.format) if args.format else None
    if args.to == "text":
        from gent_natural.native_to_text import convert_to_text
        from gent_natural.options import NaturalOptions

        try:
            options = NaturalOptions(
                enabled=not args.off,
                pretty_print_json=args.pretty_print_json,
                max_response_length=args.max_response_length,
                separator=args.separator,
                role_strategy=args.role_strategy,
                metadata_strategy=args.metadata_strategy,
            )
        except ValueError as error:
            raise InputError(str(error)) from None
        written = convert_to_text(messages, options, text_format=text_format)
        return written.messages, written
    from gent_natural.text_to_native import convert_to_native

    if args.toolchain and text_format is None:
        raise InputError("--toolchain needs --format (the format its action sections are in)")
    tools = [_component("tool", name.strip()) for name in args.tools.split(",") if name.strip()]
    chain = _component("toolchain", args.toolchain, tools=tools) if args.toolchain else None
    roles = [role.strip() for role in args.roles.split(",") if role.strip()]
    unknown = sorted(set(roles) - {"system", "user", "assistant"})
    if unknown:
        raise InputError(
            f"--roles: unknown role(s) {', '.join(unknown)}; accepted: system, user, assistant"
        )
    conversion = convert_to_native(
        messages,
        tools=tools if args.tools.strip() else None,
        separator=args.separator,
        roles=roles,
        text_format=text_format,
        chain=chain,
    )
    return conversion.messages, conversion


def run(args: argparse.Namespace) -> int:
    """Convert the input and print it; return 0, or 1 on bad input."""
    import logging

    from gent_core.bounds import write_json
    from gent_natural.openai_writer import messages_to_openai

    # the problems are printed below; the library's warnings would repeat them
    logging.getLogger("gent_natural").addHandler(logging.NullHandler())
    try:
        text, name = _read(args.file)
        converted, conversion = _convert(args, read_messages(text, name))
    except InputError as error:
        print(f"gent convert: {error}", file=sys.stderr)
        return 1
    for problem in conversion.problems:
        print(f"gent convert: warning: {problem}", file=sys.stderr)
    print(write_json(messages_to_openai(converted), indent=2))
    verb = "written as text" if args.to == "text" else "read into native messages"
    print(
        f"gent convert: {conversion.transformed} messages {verb}, "
        f"{conversion.passed_through} passed through unchanged",
        file=sys.stderr,
    )
    return 0
