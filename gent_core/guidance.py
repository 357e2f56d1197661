"""Helpers for tool chains' prompt guidance: example calls built from tools' schemas."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gent_core.tools.base import Tool

__all__ = ["example_arguments", "example_calls"]


def example_arguments(tool: Tool) -> dict[str, Any]:
    """Return example arguments for ``tool``: its required arguments with sample values.

    Values come from the schema's ``examples``, ``const``, ``default`` or ``enum`` when
    given, else a valid value of the right type, with placeholder strings (``"<query>"`` for
    a string argument named ``query``); see :mod:`gent_core.schema_examples`. A tool without
    required arguments shows its first argument, if any.
    """
    from gent_core.schema_examples import example_arguments as from_schema

    return from_schema(tool.parameters, placeholders=True)


def example_calls(tools: Sequence[Tool], count: int = 1) -> list[tuple[str, dict[str, Any]]]:
    """Return up to ``count`` example calls ``(tool name, arguments)`` for ``tools``.

    Without tools, a neutral ``search`` call is shown.
    """
    if not tools:
        return [("search", {"query": "<query>"})][:count]
    return [(tool.name, example_arguments(tool)) for tool in tools[:count]]
