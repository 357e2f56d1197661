"""gent-json: the ``json`` tool chain (tool calls written as JSON), and the reader of calls
that other tool chains build on.

* :class:`JSONToolChain` is the ``json`` tool chain;
* :func:`read_json_calls` reads the JSON calls of an action section, leniently but without
  guessing (:mod:`gent_json.reading`); :func:`find_json_values` is the lenient JSON reader
  under it (:mod:`gent_json.lenient`), and :func:`scan` the linear bracket scan that finds
  the candidate spans (:mod:`gent_json.spans`);
* :func:`calls_from_values` and :func:`normalize_call` turn parsed mappings (from JSON, YAML
  or another syntax) into :class:`~gent_core.toolchain.ToolCall` objects, accepting the keys
  :data:`NAME_KEYS` and :data:`ARGUMENT_KEYS`; a :class:`CallSyntax` says which error a
  syntax raises and which form its messages show (:mod:`gent_json.calls`);
* :func:`fenced_blocks` finds Markdown code fences around calls (:mod:`gent_json.fences`).

Tool chains of other syntaxes (``gent-yaml``, ``gent-natural``) depend on this distribution
and import these names from ``gent_json``. Everything loads on first use (PEP 562), so
importing the plugin module to register it stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core import load_export

_EXPORTS = {
    "JSONToolChain": "gent_json.chain",
    "ARGUMENT_KEYS": "gent_json.calls",
    "NAME_KEYS": "gent_json.calls",
    "CallSyntax": "gent_json.calls",
    "calls_from_values": "gent_json.calls",
    "normalize_call": "gent_json.calls",
    "fenced_blocks": "gent_json.fences",
    "find_json_values": "gent_json.lenient",
    "read_json_calls": "gent_json.reading",
    "scan": "gent_json.spans",
}

if TYPE_CHECKING:
    from gent_json.calls import (
        ARGUMENT_KEYS,
        NAME_KEYS,
        CallSyntax,
        calls_from_values,
        normalize_call,
    )
    from gent_json.chain import JSONToolChain
    from gent_json.fences import fenced_blocks
    from gent_json.lenient import find_json_values
    from gent_json.reading import read_json_calls
    from gent_json.spans import scan

__all__ = [
    "ARGUMENT_KEYS",
    "NAME_KEYS",
    "CallSyntax",
    "JSONToolChain",
    "calls_from_values",
    "fenced_blocks",
    "find_json_values",
    "normalize_call",
    "read_json_calls",
    "scan",
]


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)
