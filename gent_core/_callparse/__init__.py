"""Reading tool calls out of model text: a lenient JSON reader and call normalisation.

* :func:`read_json_calls` reads JSON calls from an action section, accepting what real models
  write (fences, prose, Python literals, trailing commas...) and refusing what was cut off.
* :func:`find_json_values` and :func:`parse_json_value` are the lenient JSON reader itself.
* :func:`calls_from_values` and :func:`normalize_call` turn parsed mappings (from JSON or
  YAML) into :class:`~gent_core.toolchain.ToolCall` objects, accepting ``name``/``arguments``/
  ``parameters`` for ``tool``/``args``.
* :func:`fenced_blocks` finds Markdown code fences.
"""

from gent_core._callparse.calls import (
    ARGUMENT_KEYS,
    JSON_SYNTAX,
    NAME_KEYS,
    CallSyntax,
    calls_from_values,
    normalize_call,
)
from gent_core._callparse.fences import fenced_blocks, is_blank
from gent_core._callparse.json_calls import read_json_calls
from gent_core._callparse.lenient import JSON_CALL_FORM, find_json_values, parse_json_value
from gent_core._callparse.tolerant import TolerantJSONError

__all__ = [
    "ARGUMENT_KEYS",
    "JSON_CALL_FORM",
    "JSON_SYNTAX",
    "NAME_KEYS",
    "CallSyntax",
    "TolerantJSONError",
    "calls_from_values",
    "fenced_blocks",
    "find_json_values",
    "is_blank",
    "normalize_call",
    "parse_json_value",
    "read_json_calls",
]
