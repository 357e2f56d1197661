"""Helpers for tool chains' prompt guidance: example calls built from tools' schemas."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gent_core.tools.base import Tool

__all__ = ["example_arguments", "example_calls"]

_PLACEHOLDERS: dict[str, Any] = {
    "integer": 1,
    "number": 1.5,
    "boolean": True,
    "array": [],
    "object": {},
}


def _resolve(schema: Any, root: dict[str, Any]) -> dict[str, Any]:
    for _ in range(10):
        if not isinstance(schema, dict):
            return {}
        ref = schema.get("$ref")
        if not isinstance(ref, str) or not ref.startswith("#/"):
            return schema
        target: Any = root
        for part in ref[2:].split("/"):
            target = target.get(part) if isinstance(target, dict) else None
        schema = target
    return {}


def _example_value(schema: Any, root: dict[str, Any], name: str) -> Any:
    schema = _resolve(schema, root)
    examples = schema.get("examples")
    if isinstance(examples, list) and examples:
        return examples[0]
    for key in ("default", "const"):
        if key in schema and schema[key] is not None:
            return schema[key]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list):
            for branch in branches:
                if _resolve(branch, root).get("type") != "null":
                    return _example_value(branch, root, name)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((item for item in kind if item != "null"), None)
    if kind == "string" or not isinstance(kind, str):
        return f"<{name}>"
    return _PLACEHOLDERS.get(kind, f"<{name}>")


def example_arguments(tool: Tool) -> dict[str, Any]:
    """Return example arguments for ``tool``: its required arguments with sample values.

    Values come from the schema's ``examples``, ``default``, ``const`` or ``enum`` when
    given, else a placeholder of the right type (``"<query>"`` for a string argument named
    ``query``, ``1``, ``true``...). A tool without required arguments shows its first
    argument, if any.
    """
    schema = tool.parameters
    properties = schema.get("properties")
    if not isinstance(properties, dict) or not properties:
        return {}
    required = [name for name in schema.get("required", ()) if name in properties]
    names = required or [next(iter(properties))]
    return {name: _example_value(properties[name], schema, name) for name in names}


def example_calls(tools: Sequence[Tool], count: int = 1) -> list[tuple[str, dict[str, Any]]]:
    """Return up to ``count`` example calls ``(tool name, arguments)`` for ``tools``.

    Without tools, a neutral ``search`` call is shown.
    """
    if not tools:
        return [("search", {"query": "<query>"})][:count]
    return [(tool.name, example_arguments(tool)) for tool in tools[:count]]
