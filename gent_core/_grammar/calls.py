"""Building blocks for tool chains' call grammars (:meth:`ToolChain.grammar_calls
<gent_core.toolchain.ToolChain.grammar_calls>`): the bound on calls per action, each tool's
argument schema, and "one call or several" around a chain's own call rule.

The bound is the agent's ``limits.max_calls_per_action``: the agent puts it in its
:class:`~gent_core.model.OutputStructure`, the grammar builder carries it
(:attr:`GrammarBuilder.max_calls <gent_core._grammar.GrammarBuilder.max_calls>`), and a chain
passes it on: ``repeat_calls(call, separator, max_calls=builder.max_calls)``.

The call syntaxes themselves live in the chains' plugins; arguments are converted with
:class:`~gent_core._grammar.JSONSchemaConverter`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

__all__ = ["MAX_CALLS", "CallableTool", "arguments_schema", "repeat_calls"]

MAX_CALLS = 16
"""Most calls one action may hold when the grammar is given no bound (the default of
``limits.max_calls_per_action``): a bound, because small models otherwise repeat a call until
they are cut off, and high enough for the parallel calls a task can need."""


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


def repeat_calls(
    call: str,
    separator: str,
    *,
    opening: str = "",
    closing: str = "",
    max_calls: int | None = None,
) -> str:
    """The expression of 1 to ``max_calls`` calls matching rule ``call``, separated by the
    expression ``separator``, between ``opening`` and ``closing`` (expressions too).

    Args:
        call: The rule of one call.
        separator: The expression between two calls.
        opening: The expression before the calls (``"["``...).
        closing: The expression after them.
        max_calls: Most calls (pass ``builder.max_calls``: the agent's
            ``limits.max_calls_per_action``); ``None``: :data:`MAX_CALLS`.

    Raises:
        ValueError: When ``max_calls`` is less than 1.
    """
    most = MAX_CALLS if max_calls is None else max_calls
    if most < 1:
        raise ValueError(f"max_calls must be at least 1, got {most}")
    more = f"({separator} {call}){{0,{most - 1}}}" if most > 1 else ""
    parts = [opening, call, more, closing]
    return " ".join(part for part in parts if part)
