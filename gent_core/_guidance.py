"""Helpers for tool chains' prompt guidance: example calls built from tools' schemas.

:meth:`ToolChain.example_calls <gent_core.toolchain.ToolChain.example_calls>` uses the same
values by default; a chain writes them in its own syntax with
:meth:`~gent_core.toolchain.ToolChain.format_calls`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gent_core.toolchain import ToolCall

if TYPE_CHECKING:
    from gent_core.tools.base import Tool

__all__ = ["NEUTRAL_CALL", "example_arguments", "example_calls"]

NEUTRAL_CALL = ToolCall("search", {"query": "weather in Paris"}, "call_0")
"""The call shown to explain a syntax when a chain has no tools."""


def example_arguments(tool: Tool) -> dict[str, Any]:
    """Return example arguments for ``tool``: concrete values valid for its schema.

    Values come from the schema's ``examples``, ``const``, ``default`` or ``enum`` when
    given, else a valid value of the right type; see :mod:`gent_core._schema_examples`.
    """
    from gent_core._schema_examples import example_arguments as from_schema

    return from_schema(tool.parameters or {})


def example_calls(tools: Sequence[Tool], count: int = 2) -> list[ToolCall]:
    """Return up to ``count`` example calls of different ``tools`` (ids ``call_0``...).

    Without tools, the neutral :data:`NEUTRAL_CALL` is returned.
    """
    from gent_core._schema_examples import example_calls as from_schemas

    if not tools:
        return [NEUTRAL_CALL][:count]
    return [
        ToolCall(name, arguments, f"call_{index}")
        for index, (name, arguments) in enumerate(from_schemas(tools, count))
    ]
