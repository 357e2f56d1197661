"""Building blocks for tool chains' call grammars (:meth:`ToolChain.grammar_calls
<gent_core.toolchain.ToolChain.grammar_calls>`): the bound on calls per action, each tool's
argument schema, and "one call or several" around a chain's own call rule.

The call syntaxes themselves live in the chains' plugins; arguments are converted with
:class:`~gent_core._grammar.JSONSchemaConverter`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

__all__ = ["MAX_CALLS", "CallableTool", "arguments_schema", "repeat_calls"]

MAX_CALLS = 4
"""Most calls one action may hold: small models otherwise repeat a call until cut off."""


class CallableTool(Protocol):
    """What call rules need from a tool: its name and argument schema."""

    @property
    def name(self) -> str:
        """The tool's name."""
        ...

    @property
    def parameters(self) -> dict[str, Any]:
        """The JSON Schema of its arguments."""
        ...


def arguments_schema(tool: CallableTool) -> Mapping[str, Any]:
    """The tool's argument schema; a tool without one takes no arguments (an empty object)."""
    schema = tool.parameters or {}
    if "type" not in schema and "properties" not in schema:
        return {"type": "object", "properties": {}, "additionalProperties": False}
    return schema


def repeat_calls(call: str, separator: str, *, opening: str = "", closing: str = "") -> str:
    """The expression of 1 to :data:`MAX_CALLS` calls matching rule ``call``, separated by
    the expression ``separator``, between ``opening`` and ``closing`` (expressions too).
    """
    parts = [opening, call, f"({separator} {call}){{0,{MAX_CALLS - 1}}}", closing]
    return " ".join(part for part in parts if part)
