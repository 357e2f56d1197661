r"""Write calls and values as Python source: the inverse of :mod:`gent_pythonic.reader`.

* A call is ``name(key=value, ...)`` on one line; an argument whose name is not a plain
  Python keyword argument (``"file-path"``, ``"if"``, a non-ASCII name) is written
  ``**{"file-path": value}`` in its place, which the reader accepts because the dict is a
  literal.
* Strings are double-quoted, with the escapes JSON and Python read alike (``\"``, ``\\``,
  ``\n``, ``\t``, ``\u0001``...); lone surrogates are written ``\udXXX`` (Python reads them
  back as the same lone surrogate). A string therefore never spans lines.
* ``True``, ``False``, ``None``; integers as digits; floats as :func:`repr` writes them
  (``2.5``, ``1e+16``, ``-0.0``); lists and tuples as ``[...]``, dicts as ``{"key": value}``.
"""

from __future__ import annotations

import json
import keyword
import math
import re
from collections.abc import Sequence
from typing import Any

from gent_core.bounds import ValueBoundsError, check_value
from gent_core.toolchain import ToolCall

__all__ = [
    "CALL_NAME",
    "is_keyword_name",
    "write_call",
    "write_calls",
    "write_string",
    "write_value",
]

CALL_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_][A-Za-z0-9_-]*)*")
"""A name a call can be written with: ASCII identifiers joined by dots, dashes allowed (a tool
named ``get-time`` is called ``get-time(...)``, one named ``math.factorial``
``math.factorial(...)``; gent's tool names all match)."""

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SURROGATE = re.compile("[\ud800-\udfff]")


def is_keyword_name(name: str) -> bool:
    """Whether ``name`` can be written as ``name=value`` (an ASCII identifier, not a keyword).

    ``True``, ``None``, ``if``... are keywords; soft keywords (``match``, ``type``, ``_``)
    are ordinary names in an argument list.
    """
    return _IDENTIFIER.fullmatch(name) is not None and not keyword.iskeyword(name)


def _escape_surrogate(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def write_string(text: str) -> str:
    """``text`` as a double-quoted Python string literal on one line."""
    written = json.dumps(text, ensure_ascii=False)
    return _SURROGATE.sub(_escape_surrogate, written)


def write_value(value: Any) -> str:
    """``value`` (JSON-like data) as a Python literal.

    Raises:
        ValueError: For a value the reader could not give back: a non-finite float, a dict
            key that is not a string, or another type (sets, objects...).
    """
    if value is None or value is True or value is False:
        return repr(value)
    if isinstance(value, str):
        return write_string(value)
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value!r} has no literal that reads back as a number")
        return repr(float(value))
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(write_value(item) for item in value) + "]"
    if isinstance(value, dict):
        items = []
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValueError(f"dict keys must be strings, got {key!r}")
            items.append(f"{write_string(key)}: {write_value(item)}")
        return "{" + ", ".join(items) + "}"
    raise ValueError(f"a {type(value).__name__} cannot be written as a literal: {value!r}")


def write_call(call: ToolCall) -> str:
    """One call on one line: ``name(key=value, **{"odd-key": value})``.

    Raises:
        ValueError: When the tool name cannot be written as a call name, or an argument
            cannot be written (see :func:`write_value`), including values beyond gent's
            bounds (nesting, integer size).
    """
    if CALL_NAME.fullmatch(call.tool) is None:
        raise ValueError(
            f"the tool name {call.tool!r} cannot be written as a call (letters, digits, _ and -, "
            "names joined by dots)"
        )
    try:
        check_value(call.args, name="args")
    except ValueBoundsError as error:
        raise ValueError(error.problem) from None
    parts = []
    for key, value in call.args.items():
        if not isinstance(key, str):
            raise ValueError(f"argument names must be strings, got {key!r}")
        written = write_value(value)
        if is_keyword_name(key):
            parts.append(f"{key}={written}")
        else:
            parts.append(f"**{{{write_string(key)}: {written}}}")
    return f"{call.tool}({', '.join(parts)})"


def write_calls(calls: Sequence[ToolCall]) -> str:
    """Every call on a line of its own (nothing for no calls)."""
    return "\n".join(write_call(call) for call in calls)
