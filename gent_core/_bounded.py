"""Reading JSON, YAML and files that come from outside, within gent's bounds.

Everything a person hands gent — a config or suite file, a transcript, a conversation for
``gent convert``, a ``gent call`` argument, a ``-o key=value`` — is read here, so it obeys the
bounds every gent value obeys (:mod:`gent_core._serialize`) and a bad input is a clear error,
never a traceback or Python's own advice:

* :func:`read_json` reads strict JSON (RFC 8259: no ``NaN``/``Infinity``);
* :func:`compose_yaml` composes YAML with PyYAML's safe loader and checks the node tree before
  anything is built from it; :func:`read_yaml` builds the value (``-o`` values);
* :func:`read_file` reads a file of one :class:`FileKind` up to its size limit, checked
  before the file is read (``stat``, then a bounded read); :func:`read_text_file` reads it
  as UTF-8 text, every failure worded; :func:`read_stream` does the same for standard input.

The bounds: values nest at most :data:`~gent_core._serialize.MAX_DEPTH` levels, integers have
at most :data:`~gent_core._serialize.MAX_INT_DIGITS` digits, numbers are finite, a YAML
document holds at most :data:`MAX_YAML_VALUES` values (aliases expanded, so an alias bomb is
refused after reading its text once) and no alias that contains itself. A file's size limit
is its kind's default, or the environment variable the kind names (``GENT_MAX_CONFIG_SIZE``).

Errors are :class:`~gent_core.errors.InputSyntaxError` (not JSON/YAML),
:class:`~gent_core.errors.InputBoundsError` (beyond a bound) and
:class:`~gent_core.errors.InputTooLargeError` (a file over its limit); each message names the
input (``ARGS``, ``agent.yaml``), what is wrong and what is accepted.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import IO, Any

from gent_core._serialize import MAX_DEPTH, MAX_INT_DIGITS, ValueBoundsError, check_value
from gent_core.errors import InputBoundsError, InputError, InputSyntaxError, InputTooLargeError

__all__ = [
    "CONFIG_FILE",
    "DECLARATION_FILE",
    "FILE_KINDS",
    "MAX_YAML_VALUES",
    "TASK_INPUT",
    "TRANSCRIPT_FILE",
    "MAX_SIZE_LIMIT",
    "FileKind",
    "compose_yaml",
    "construct_scalar",
    "describe_yaml_error",
    "read_file",
    "read_json",
    "read_stream",
    "read_text_file",
    "read_yaml",
    "size_limit",
]

MAX_YAML_VALUES = 100_000
"""Most values (nodes) one YAML document may hold, aliases expanded (stops alias bombs)."""

_MIB = 1024 * 1024
_TAG = "tag:yaml.org,2002:"
_BUILT_TAGS = frozenset(_TAG + name for name in ("int", "float", "timestamp"))
"""Scalars checked (built) while composing: the others cannot fail or break a bound."""
_INT_PREFIX = re.compile(r"^[-+]?(?:0[box])?", re.IGNORECASE)


# --------------------------------------------------------------------------- files


@dataclass(frozen=True)
class FileKind:
    """A kind of file gent reads, with its size limit.

    Attributes:
        noun: What such a file is called in messages (``"config file"``).
        variable: The environment variable that changes the limit (``GENT_MAX_CONFIG_SIZE``).
        default: The limit in bytes when the variable is not set.
    """

    noun: str
    variable: str
    default: int


CONFIG_FILE = FileKind("config file", "GENT_MAX_CONFIG_SIZE", 2 * _MIB)
"""Agent configs: hand-written YAML, read by PyYAML's pure-Python loader (about 0.2-2 MB/s)."""

TRANSCRIPT_FILE = FileKind("transcript", "GENT_MAX_TRANSCRIPT_SIZE", 256 * _MIB)
"""Run transcripts (JSON lines): every step of a long run, tool outputs included."""

TASK_INPUT = FileKind("task", "GENT_MAX_TASK_SIZE", 4 * _MIB)
"""A task read from standard input (``echo TASK | gent run``, ``gent run CONFIG -``)."""

DECLARATION_FILE = FileKind("tool declarations file", "GENT_MAX_DECLARATION_SIZE", 8 * _MIB)
"""Tool declarations (``declare: {file: ...}``): JSON or YAML function docs, MCP listings."""

FILE_KINDS = (
    CONFIG_FILE,
    TRANSCRIPT_FILE,
    TASK_INPUT,
    DECLARATION_FILE,
)
"""Every kind of file the core reads with a size limit (a plugin defines its own: ``gent eval``
suites, ``gent convert`` conversations)."""

_UNITS = {"": 1, "k": 1024, "m": _MIB, "g": 1024 * _MIB}
_SIZE = re.compile(r"^\s*(\d+)\s*([kmg]?)(?:i?b)?\s*$", re.IGNORECASE)

MAX_SIZE_LIMIT = 64 * 1024 * _MIB
"""The largest size limit a ``GENT_MAX_*_SIZE`` variable may set (64 GiB: gent reads such a
file into memory)."""


def _show_size(size: int) -> str:
    """``"3,145,728 bytes (3 MiB)"``."""
    for unit, factor in (("GiB", 1024 * _MIB), ("MiB", _MIB), ("KiB", 1024)):
        if size >= factor:
            amount = f"{size / factor:.1f}".removesuffix(".0")
            return f"{size:,} bytes ({amount} {unit})"
    return f"{size:,} bytes"


def size_limit(kind: FileKind, environ: Mapping[str, str] | None = None) -> int:
    """The size limit of ``kind`` in bytes: its variable when set, else its default.

    The variable holds a number of bytes, optionally with a ``K``, ``M`` or ``G`` suffix
    (binary units: ``64M`` is 64 MiB), from 1 byte to :data:`MAX_SIZE_LIMIT` (``64G``).

    Raises:
        InputError: The variable is set to something else, naming it and what is accepted.
    """
    text = (os.environ if environ is None else environ).get(kind.variable, "").strip()
    if not text:
        return kind.default
    accepted = (
        f"write a number of bytes from 1 to {MAX_SIZE_LIMIT:,} (64G), optionally with a K, M "
        f"or G suffix (e.g. {kind.variable}=64M)"
    )
    shown = text if len(text) <= 40 else text[:40] + "..."
    match = _SIZE.match(text)
    if match is None:
        raise InputError(f"{kind.variable}={shown!r} is not a size; {accepted}")
    digits = match.group(1).lstrip("0")
    # compared as text first: a number of thousands of digits is never turned into an int
    if len(digits) > len(str(MAX_SIZE_LIMIT)):
        size = MAX_SIZE_LIMIT + 1
    else:
        size = int(digits or "0") * _UNITS[match.group(2).lower()]
    if size == 0:
        raise InputError(f"{kind.variable}={shown!r} is not a size; {accepted}")
    if size > MAX_SIZE_LIMIT:
        raise InputError(f"{kind.variable}={shown!r} is too large; {accepted}")
    return size


def _read_at_most(stream: IO[bytes], limit: int, expected: int = 0) -> bytes:
    """Up to ``limit + 1`` bytes of ``stream``, read in pieces of at most 1 MiB (a read of
    ``limit + 1`` bytes at once would reserve that much memory first, whatever arrives).

    ``expected`` is the size the caller knows of (a file's ``stat``): the first read asks for
    one byte more, so a file of that size takes one read and the end of file.
    """
    chunks: list[bytes] = []
    left = limit + 1
    want = max(expected + 1, 1)
    while left > 0:
        chunk = stream.read(min(left, want, _MIB))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
        want = _MIB
    return b"".join(chunks)


def _too_large(name: str, kind: FileKind, limit: int, size: int | None) -> InputTooLargeError:
    if size is not None:
        what = f"is {_show_size(size)}; a {kind.noun} may be at most {_show_size(limit)}"
    else:
        what = f"holds more than {_show_size(limit)}, the most a {kind.noun} may hold"
    return InputTooLargeError(
        f"{name} {what}",
        hint=f"To read a larger {kind.noun}, set {kind.variable} to a larger size "
        f"(e.g. {kind.variable}={max(limit * 4 // _MIB, 1)}M).",
        problem=f"the {kind.noun} {what}",
    )


def read_file(
    path: str | os.PathLike[str], kind: FileKind, *, environ: Mapping[str, str] | None = None
) -> bytes:
    """Read the file at ``path``, refusing it when it is larger than ``kind``'s limit.

    The size is checked before anything is read (the file's ``stat``), and the read itself
    stops after the limit, so a file that grows meanwhile (or a device) is refused too.

    Raises:
        InputTooLargeError: Naming the file, its size, the limit and the variable to change.
        InputError: The limit's variable is not a size.
        OSError: The file cannot be opened or read (the caller words it).
    """
    limit = size_limit(kind, environ)
    name = os.fspath(path)
    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size > limit:
            raise _too_large(name, kind, limit, size)
        data = _read_at_most(handle, limit, size)
    if len(data) > limit:
        raise _too_large(name, kind, limit, None)
    return data


def read_text_file(
    path: str | os.PathLike[str], kind: FileKind, *, environ: Mapping[str, str] | None = None
) -> str:
    """Read the UTF-8 text file at ``path`` with :func:`read_file`, wording every failure.

    Raises:
        InputError: Whose :attr:`~gent_core.errors.InputError.problem` says what was wrong
            in the kind's words (``"config file not found"``, ``"is a directory, not a
            config file"``, ``"not UTF-8 text (byte 7)"``, ``"cannot read the config file:
            Permission denied"``, too large), with a hint when a limit can be changed.
    """
    name = os.fspath(path)
    try:
        return read_file(path, kind, environ=environ).decode("utf-8")
    except FileNotFoundError:
        problem = f"{kind.noun} not found"
    except IsADirectoryError:
        problem = f"is a directory, not a {kind.noun}"
    except UnicodeDecodeError as error:
        problem = f"not UTF-8 text (byte {error.start})"
    except OSError as error:
        problem = f"cannot read the {kind.noun}: {error.strerror or error}"
    except InputError:  # larger than the limit, or the limit's variable is wrong
        raise
    raise InputError(f"{name}: {problem}", problem=problem)


def read_stream(
    stream: IO[bytes], name: str, kind: FileKind, *, environ: Mapping[str, str] | None = None
) -> bytes:
    """Read ``stream`` (standard input) up to ``kind``'s limit.

    Raises:
        InputTooLargeError: More than the limit arrived (nothing past it is read).
        InputError: The limit's variable is not a size.
    """
    limit = size_limit(kind, environ)
    data = _read_at_most(stream, limit)
    if len(data) > limit:
        raise _too_large(name, kind, limit, None)
    return data


# --------------------------------------------------------------------------- JSON


class _Refused(Exception):
    """A JSON number or constant outside the bounds (raised from the decoder's hooks)."""

    def __init__(self, problem: str, syntax: bool = False) -> None:
        super().__init__(problem)
        self.problem = problem
        self.syntax = syntax


def _int_digits_accepted() -> int:
    """The most digits of an integer read: gent's bound, or Python's own when lower."""
    python = sys.get_int_max_str_digits()
    return min(MAX_INT_DIGITS, python) if python else MAX_INT_DIGITS


def _json_int(text: str) -> int:
    accepted = _int_digits_accepted()
    if len(text) - text.startswith("-") > accepted:
        raise _Refused(
            f"an integer has {len(text.lstrip('-')):,} digits; gent accepts integers of at "
            f"most {accepted:,} digits (a fixed bound; write it as a string)"
        )
    return int(text)


def _json_hooks(*, every_int: bool) -> dict[str, Any]:
    """The decoder's hooks: constants and floats are always checked (floats are few); each
    integer costs a Python call, so integers are checked only with ``every_int`` or when
    Python itself does not stop long ones at gent's bound.
    """
    hooks: dict[str, Any] = {"parse_constant": _json_constant, "parse_float": _json_float}
    python = sys.get_int_max_str_digits()
    if every_int or not python or python > MAX_INT_DIGITS:
        hooks["parse_int"] = _json_int
    return hooks


def _json_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise _Refused(
            f"the number {shown} is too large to be finite; gent accepts finite numbers only "
            "(write it as a string)"
        )
    return value


def _json_constant(name: str) -> Any:
    raise _Refused(
        f"{name} is not a JSON value (write a finite number, or the text {name!r} as a string)",
        syntax=True,
    )


def _nested(
    source: str,
    path: tuple[str | int, ...] = (),
    node: Any = None,
    with_line: bool = False,
    depth: int = MAX_DEPTH,
) -> InputBoundsError:
    """Nested too deeply: ``path`` is where the deep branch starts, ``node`` its YAML node."""
    where = _where(path)
    subject = f"the value at {where} in {source}" if where else source
    line = column = None
    if node is not None:
        line, column = node.start_mark.line + 1, node.start_mark.column + 1
        if with_line:
            subject += f", line {line},"
    return InputBoundsError(
        f"{subject} nests more than {depth} levels deep; gent accepts values nested at "
        f"most {depth} levels (a fixed bound)",
        problem=f"{'the value at ' + where if where else 'the value'} nests more than "
        f"{depth} levels deep; gent accepts values nested at most {depth} levels "
        "(a fixed bound)",
        line=line,
        column=column,
        path=path,
    )


def _where(path: tuple[str | int, ...]) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def read_json(text: str, *, source: str, max_depth: int = MAX_DEPTH) -> Any:
    """Read ``text`` as one strict JSON value within gent's bounds.

    Args:
        text: The JSON text.
        source: What the text is, for messages (``"ARGS"``, ``"deep.json, line 3"``).
        max_depth: The deepest nesting accepted. A record gent wrote itself (a transcript
            line) holds values of up to :data:`~gent_core._serialize.MAX_DEPTH` levels inside
            its own structure, and is read with the bound it was written with
            (:data:`~gent_core._serialize.OUTPUT_MAX_DEPTH`).

    Raises:
        InputSyntaxError: Not valid JSON (``NaN`` and ``Infinity`` included), with the line
            and column.
        InputBoundsError: Nested more than :data:`~gent_core._serialize.MAX_DEPTH` levels, an
            integer of more than :data:`~gent_core._serialize.MAX_INT_DIGITS` digits, or a
            number too large to be finite.
    """
    brackets = text.count("[") + text.count("{")
    if brackets > _PATHLESS_DEPTH and _brackets_deeper_than(text, _PATHLESS_DEPTH):
        # refused before parsing, the same way on every Python: how deep json.loads may go
        # depends on the interpreter's recursion limits (3.12+ parses thousands of levels)
        raise _nested(source, depth=max_depth)
    try:
        try:
            value = json.loads(text, **_json_hooks(every_int=False))
        except ValueError as error:
            if isinstance(error, json.JSONDecodeError):
                raise
            # an integer past Python's own digit limit: read again to say which, in our words
            value = json.loads(text, **_json_hooks(every_int=True))
    except _Refused as refused:
        if refused.syntax:
            problem = f"not valid JSON: {refused.problem}"
            raise InputSyntaxError(f"{source} is {problem}", problem=problem) from None
        raise InputBoundsError(f"{source}: {refused.problem}", problem=refused.problem) from None
    except RecursionError:
        raise _nested(source) from None
    except json.JSONDecodeError as error:
        where = f"column {error.colno}"
        if "\n" in text:
            where = f"line {error.lineno}, {where}"
        problem = f"not valid JSON: {error.msg} at {where}"
        raise InputSyntaxError(
            f"{source} is {problem}", problem=problem, line=error.lineno, column=error.colno
        ) from None
    except ValueError as error:  # pragma: no cover - the hooks and the decoder raise the above
        raise InputSyntaxError(f"{source} is not valid JSON: {error}", problem=str(error)) from None
    # deeper than MAX_DEPTH needs more opening brackets than that (json.loads itself stops
    # at Python's recursion limit, about 1,000 levels)
    if brackets > max_depth:
        deep = _too_deep(value, max_depth)
        if deep is not None:
            if max_depth != MAX_DEPTH:
                raise _nested(source, deep, depth=max_depth)
            _check(value, source)
    return value


_PATHLESS_DEPTH = 500
"""JSON text whose brackets nest deeper than this is refused before it is parsed (no path is
given for it); shallower text is parsed and a value past the bound is named by its path."""


def _brackets_deeper_than(text: str, limit: int) -> bool:
    """Whether the JSON brackets of ``text`` (outside strings) nest deeper than ``limit``.

    One pass over its brackets, quotes and backslashes (:func:`read_json` calls it only when
    the text holds more than ``limit`` opening brackets).
    """
    depth = 0
    in_string = False
    skip_at = -1  # the position of a character escaped by a backslash
    for match in _JSON_STRUCTURE.finditer(text):
        position, char = match.start(), match.group()
        if position == skip_at:
            continue
        if in_string:
            if char == "\\":
                skip_at = position + 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


_JSON_STRUCTURE = re.compile(r'[\[\]{}"\\]')


def _too_deep(value: Any, max_depth: int = MAX_DEPTH) -> tuple[str | int, ...] | None:
    """Where ``value`` (plain JSON data) nests more than ``max_depth`` levels: the path of the
    container that starts the too-deep branch, or ``None``. Containers only are walked,
    without recursion.
    """
    stack: list[tuple[Any, int, tuple[str | int, ...]]] = (
        [(value, 1, ())] if isinstance(value, (dict, list)) else []
    )
    while stack:
        item, depth, path = stack.pop()
        if depth > max_depth:
            return path[:-1]
        children = item.items() if isinstance(item, dict) else enumerate(item)
        for key, child in children:
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1, (*path, key)))
    return None


def _check(value: Any, source: str) -> None:
    """Raise the bounds error for ``value``, naming where (see :func:`check_value`)."""
    try:
        check_value(value)
    except ValueBoundsError as error:
        if "levels deep" in error.problem:
            raise _nested(source, error.path) from None
        raise InputBoundsError(  # pragma: no cover - the decoders' hooks refuse these first
            f"{source}: {error.problem}", problem=error.problem, path=error.path
        ) from None


# --------------------------------------------------------------------------- YAML


def describe_yaml_error(error: Exception) -> tuple[str, int | None, int | None]:
    """What a PyYAML error says, without quoting the text (which may hold secrets), and the
    1-based line and column it names (``None`` when it names none).
    """
    import yaml

    if isinstance(error, yaml.MarkedYAMLError):
        mark = error.problem_mark or error.context_mark
        context = error.context or ""
        if context and error.context_mark is not None and error.context_mark is not mark:
            context += f" (started on line {error.context_mark.line + 1})"
        parts = [part for part in (context, error.problem) if part]
        text = ": ".join(parts) or "invalid YAML"
        if mark is not None:
            return text, mark.line + 1, mark.column + 1
        return text, None, None
    return (str(error).splitlines()[0] if str(error) else "invalid YAML"), None, None


def _syntax_error(error: Exception, source: str) -> InputSyntaxError:
    text, line, column = describe_yaml_error(error)
    where = f" (line {line}, column {column})" if line is not None else ""
    return InputSyntaxError(
        f"{source} is not valid YAML{where}: {text}",
        problem=f"invalid YAML: {text}",
        line=line,
        column=column,
    )


def _int_digits(text: str) -> int:
    """How many digits a YAML integer scalar is written with (sign, prefix, ``_`` aside)."""
    return len(_INT_PREFIX.sub("", text, count=1).replace("_", "").replace(":", ""))


def construct_scalar(
    loader: Any, node: Any, source: str = "the value", *, with_line: bool = True
) -> Any:
    """Build the value of the YAML scalar ``node`` with ``loader`` (a safe loader), within
    the bounds: integers of at most :data:`~gent_core._serialize.MAX_INT_DIGITS` digits and
    finite numbers.

    Args:
        loader: A :class:`yaml.SafeLoader` (or subclass) that builds the value.
        node: The scalar node.
        source: What the text is, for messages.
        with_line: Name the line in the message (not for one-line text).

    Raises:
        InputBoundsError: What is wrong and what is accepted (the line in its attributes).
        InputSyntaxError: The scalar looks like a value it is not (``2024-13-45``, a date
            with no month 13).
    """
    import yaml

    problem = None
    shown = node.value if len(node.value) <= 20 else node.value[:20] + "..."
    line, column = node.start_mark.line + 1, node.start_mark.column + 1
    where = f"{source}, line {line}" if with_line else source
    if node.tag == _TAG + "int" and _int_digits(node.value) > MAX_INT_DIGITS:
        problem = (
            f"an integer has {_int_digits(node.value):,} digits; gent accepts integers of at "
            f"most {MAX_INT_DIGITS:,} digits (a fixed bound; quote it to make it a string)"
        )
    else:
        try:
            value = loader.construct_object(node)
        except (ValueError, OverflowError, yaml.YAMLError) as error:
            kind = node.tag.removeprefix(_TAG)
            invalid = f"{shown} is not a valid {kind} ({error}); quote it to make it a string"
            raise InputSyntaxError(
                f"{where}: {invalid}", problem=invalid, line=line, column=column
            ) from None
        if isinstance(value, float) and not math.isfinite(value):
            problem = (
                f"{shown} is not a finite number; gent accepts finite numbers only (quote it to "
                "make it a string)"
            )
        elif isinstance(value, int) and not isinstance(value, bool):
            try:
                check_value(value)
            except ValueBoundsError:
                problem = (
                    f"an integer has more than {MAX_INT_DIGITS:,} decimal digits; gent accepts "
                    f"integers of at most {MAX_INT_DIGITS:,} digits (a fixed bound; quote it to "
                    "make it a string)"
                )
        if problem is None:
            return value
    raise InputBoundsError(
        f"{where}: {problem}",
        problem=problem,
        line=line,
        column=column,
    )


def _check_nodes(root: Any, source: str, loader: Any, with_line: bool) -> None:
    """Check the composed tree: depth, expanded size, self-containing aliases, scalars.

    Long because it is one iterative walk (no recursion: the tree may be hostile), each node
    visited twice on one stack (first its depth and aliases, then, its children done, its
    expanded size), with its helpers as closures over that stack; split apart, the two visits
    would have to share the bookkeeping through arguments on every node.
    """
    from yaml.nodes import MappingNode, ScalarNode

    sizes: dict[int, int] = {}
    heights: dict[int, int] = {}
    on_path: set[int] = set()
    # (node, depth, parent entry, key in the parent, children done)
    stack: list[tuple[Any, int, Any, str | int | None, bool]] = [(root, 0, None, None, False)]

    def path_of(entry: Any) -> tuple[str | int, ...]:
        parts: list[str | int] = []
        while entry is not None and entry[3] is not None:
            parts.append(entry[3])
            entry = entry[2]
        return tuple(reversed(parts))

    def fail(entry: Any, problem: str, kind: type[InputError] = InputBoundsError) -> InputError:
        node = entry[0]
        path = path_of(entry)
        line, column = node.start_mark.line + 1, node.start_mark.column + 1
        where = f"{source}, line {line}" if with_line else source
        if path:
            where += f" at {_where(path)}"
        return kind(f"{where}: {problem}", problem=problem, line=line, column=column, path=path)

    def children(entry: Any) -> list[tuple[Any, str | int]]:
        node = entry[0]
        if isinstance(node, MappingNode):
            found: list[tuple[Any, str | int]] = []
            for key, value in node.value:
                label = key.value if isinstance(key, ScalarNode) else "<key>"
                found += [(key, label), (value, label)]
            return found
        return [(child, index) for index, child in enumerate(node.value)]

    while stack:
        entry = stack.pop()
        node, depth, _, _, done = entry
        key = id(node)
        if done:
            on_path.discard(key)
            kids = [child for child, _ in children(entry)]
            size = 1 + sum(sizes[id(child)] for child in kids)
            if size > MAX_YAML_VALUES:
                raise fail(
                    entry,
                    f"the document holds more than {MAX_YAML_VALUES:,} values (aliases "
                    f"expanded); gent accepts at most {MAX_YAML_VALUES:,} (a fixed bound)",
                )
            sizes[key] = size
            heights[key] = 1 + max((heights[id(child)] for child in kids), default=0)
            continue
        if key in on_path:
            raise fail(entry, "a recursive alias (a value that contains itself)")
        if key in sizes:  # the same node again, through an alias
            if depth + heights[key] > MAX_DEPTH:
                raise _nested(source, path_of(entry)[:3], node, with_line)
            continue
        if isinstance(node, ScalarNode):
            if node.tag in _BUILT_TAGS:
                try:
                    construct_scalar(loader, node, source)
                except InputBoundsError as error:
                    raise fail(entry, error.problem) from None
                except InputSyntaxError as error:
                    raise fail(entry, error.problem, InputSyntaxError) from None
            sizes[key], heights[key] = 1, 0
            continue
        if depth >= MAX_DEPTH:
            raise _nested(source, path_of(entry)[:3], node, with_line)
        on_path.add(key)
        stack.append((node, depth, entry[2], entry[3], True))
        stack.extend(
            (child, depth + 1, entry, label, False) for child, label in reversed(children(entry))
        )


def compose_yaml(text: str, *, source: str) -> Any:
    """Compose ``text`` (one YAML document) with PyYAML's safe loader and check it.

    Nothing is constructed: the caller builds values from the node tree (with
    :func:`construct_scalar` for scalars it re-types). Integer and float scalars are checked
    here, so building them is safe.

    Args:
        text: The YAML text.
        source: What the text is, for messages (``"agent.yaml"``, ``"the value of max_steps"``).

    Returns:
        The root node, or ``None`` for an empty document.

    Raises:
        InputSyntaxError: Not valid YAML, or several documents (with the line).
        InputBoundsError: Nested more than :data:`~gent_core._serialize.MAX_DEPTH` levels, more
            than :data:`MAX_YAML_VALUES` values, an alias containing itself, an integer of too
            many digits or a number that is not finite (with the line).
    """
    import yaml

    try:
        # the reader refuses characters YAML forbids (NUL, most control characters) as soon
        # as it is made
        loader = yaml.SafeLoader(text)
    except yaml.YAMLError as error:
        raise _syntax_error(error, source) from None
    try:
        root = loader.get_single_node()
    except yaml.YAMLError as error:
        raise _syntax_error(error, source) from None
    except RecursionError:
        raise _nested(source) from None
    finally:
        loader.dispose()
    if root is not None:
        _check_nodes(root, source, yaml.SafeLoader(""), "\n" in text.strip())
    return root


def read_yaml(text: str, *, source: str) -> Any:
    """Read ``text`` as one YAML value (PyYAML's safe loader) within gent's bounds.

    Raises:
        InputSyntaxError: Not valid YAML.
        InputBoundsError: See :func:`compose_yaml`.
    """
    import yaml

    root = compose_yaml(text, source=source)
    if root is None:
        return None
    try:
        return yaml.SafeLoader("").construct_document(root)
    except (yaml.YAMLError, ValueError, TypeError) as error:  # !!binary junk, !!set [x]...
        raise _syntax_error(error, source) from None
