"""Write tool calls as YAML, the way the ``yaml`` chain reads them and its grammar allows.

For example::

    tool: calculator
    args:
      expression: "17 * 23"

    - tool: write_file
      args:
        path: "notes.txt"
        content: |
          first line
          second line

Argument values are written in JSON flow syntax (strings double-quoted, ``{...}`` and
``[...]``), which every YAML parser reads back unchanged: plain scalars such as ``yes`` or
``1.10`` could change type. A multi-line string is written as a literal block (``|`` when it
ends with one line break, ``|-`` when it ends with none), what the guidance teaches; other
strings (two or more final line breaks, carriage returns...) stay double-quoted.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from gent_core.toolchain import ToolCall

__all__ = ["format_yaml_calls", "yaml_key"]

_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_YAML_RESERVED = {"true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"}
# Characters a YAML reader treats as line breaks or refuses raw: always escaped.
_ESCAPE_RAW = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")
# What a literal block cannot hold: control characters other than tab and line feed, the
# characters above, and trailing line breaks beyond one.
_NOT_BLOCK = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")


def yaml_key(key: str) -> str:
    """Return ``key`` as written in a YAML block mapping: plain when safe, else quoted."""
    if _PLAIN_KEY.fullmatch(key) and key.lower() not in _YAML_RESERVED:
        return key
    return _flow(key)


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def _check_finite(value: Any) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{value!r} cannot be written as a tool argument")
    if isinstance(value, Mapping):
        for item in value.values():
            _check_finite(item)
    elif isinstance(value, list | tuple):
        for item in value:
            _check_finite(item)


def _flow(value: Any) -> str:
    """``value`` in JSON flow syntax, with the characters YAML would misread escaped."""
    _check_finite(value)
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return _ESCAPE_RAW.sub(_escape, text)


def _block(text: str, indent: str) -> str | None:
    """``text`` as a literal block scalar indented by ``indent``, or ``None`` when a block
    cannot hold it exactly.
    """
    if "\n" not in text or _NOT_BLOCK.search(text) or text.endswith("\n\n"):
        return None
    chomp = "" if text.endswith("\n") else "-"
    body = text[:-1] if text.endswith("\n") else text
    lines = body.split("\n")
    if not body.strip() or not lines[-1].strip():
        return None
    first = next(line for line in lines if line.strip())
    # An explicit indentation indicator (the content's indentation relative to its key,
    # always 2 here) when the first line with text starts with white space or blank lines
    # before it hold spaces: the reader would otherwise guess the indentation wrongly.
    explicit = first[0] in " \t" or any(line for line in lines[: lines.index(first)])
    header = f"|2{chomp}" if explicit else f"|{chomp}"
    written = "\n".join(f"{indent}{line}" if line else "" for line in lines)
    return f"{header}\n{written}"


def _value(value: Any, indent: str) -> tuple[str, bool]:
    """The text after ``key:`` and whether it ends with a clip block (needs a final line end)."""
    if isinstance(value, str):
        block = _block(value, indent)
        if block is not None:
            return f" {block}", value.endswith("\n")
    return f" {_flow(value)}", False


def _call(call: ToolCall, item: bool) -> tuple[str, bool]:
    head, inner = ("- ", "  ") if item else ("", "")
    lines = [f"{head}tool: {yaml_key(call.tool)}"]
    if not call.args:
        lines.append(f"{inner}args: {{}}")
        return "\n".join(lines), False
    lines.append(f"{inner}args:")
    clip = False
    for key, value in call.args.items():
        if not isinstance(key, str):
            raise ValueError(f"argument names must be strings, got {key!r}")
        text, clip = _value(value, inner + "    ")
        lines.append(f"{inner}  {yaml_key(key)}:{text}")
    return "\n".join(lines), clip


def format_yaml_calls(calls: Sequence[ToolCall]) -> str:
    """Write ``calls``: one call as a mapping, several as a block list of mappings.

    The text ends with a line break only when its last value is a block that keeps one.

    Raises:
        ValueError: For a value YAML cannot carry exactly (NaN, infinity, a non-string key).
    """
    if not calls:
        return "[]"
    written = [_call(call, item=len(calls) > 1) for call in calls]
    text = "\n".join(part for part, _ in written)
    return text + "\n" if written[-1][1] else text
