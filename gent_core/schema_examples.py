"""Example values from a JSON Schema: for prompt guidance and few-shot examples.

Values come from the schema's ``examples``, ``const``, ``default`` or ``enum`` when given,
else a small value of the right type that validates against the schema (objects with their
required properties, one-item arrays, formatted strings for ``date``, ``uri``...). Strings
are either readable text (``"example query"``, safe inside any section) or placeholders
(``"<query>"``, clearer in a prompt's syntax description).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gent_core.schema_refs import follow_refs

__all__ = ["example_arguments", "example_object", "example_value"]

_STRING_FORMATS = {
    "date": "2024-05-01",
    "time": "09:30:00",
    "date-time": "2024-05-01T09:30:00Z",
    "uuid": "123e4567-e89b-12d3-a456-426614174000",
    "duration": "PT1H",
    "email": "ada@example.com",
    "uri": "https://example.com",
}


def _resolve(schema: Any, root: Mapping[str, Any]) -> Mapping[str, Any]:
    return follow_refs(schema, root) or {}


def example_value(
    schema: Any,
    root: Mapping[str, Any],
    name: str = "value",
    depth: int = 0,
    *,
    placeholders: bool = False,
) -> Any:
    """Return a value valid for ``schema``: its examples, const, default or first enum value
    when given, else a small value of the right type.

    Args:
        schema: The (sub)schema.
        root: The whole schema, for ``$ref`` resolution.
        name: The property name, used in example strings.
        depth: Nesting depth (objects deeper than 4 levels are left empty).
        placeholders: Write strings as ``"<name>"`` instead of ``"example name"``.
    """
    schema = _resolve(schema, root)
    examples = schema.get("examples")
    if isinstance(examples, list) and examples:
        return examples[0]
    for key in ("const", "default"):
        if key in schema and schema[key] is not None:
            return schema[key]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list):
            for branch in branches:
                if _resolve(branch, root).get("type") != "null":
                    return example_value(branch, root, name, depth + 1, placeholders=placeholders)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((item for item in kind if item != "null"), "null")
    if kind == "object" or "properties" in schema:
        return (
            example_object(schema, root, depth + 1, placeholders=placeholders) if depth < 4 else {}
        )
    if kind == "array":
        items = schema.get("items", {})
        count = max(1, int(schema.get("minItems", 1)))
        return [
            example_value(items, root, name, depth + 1, placeholders=placeholders)
            for _ in range(min(count, 3))
        ]
    if kind == "integer":
        return max(int(schema.get("minimum", 3)), 3) if "minimum" in schema else 3
    if kind == "number":
        return 2.5
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    fmt = schema.get("format")
    if isinstance(fmt, str) and fmt in _STRING_FORMATS:
        return _STRING_FORMATS[fmt]
    return f"<{name}>" if placeholders else f"example {name.replace('_', ' ')}"


def example_object(
    schema: Mapping[str, Any],
    root: Mapping[str, Any],
    depth: int = 0,
    *,
    placeholders: bool = False,
) -> dict[str, Any]:
    """Return an example object: every required property (or the first one if none is)."""
    properties = schema.get("properties")
    if not isinstance(properties, Mapping) or not properties:
        return {}
    required = [key for key in schema.get("required", ()) if key in properties]
    names = required or [next(iter(properties))]
    return {
        key: example_value(properties[key], root, key, depth, placeholders=placeholders)
        for key in names
    }


def example_arguments(
    parameters: Mapping[str, Any], *, placeholders: bool = False
) -> dict[str, Any]:
    """Return example arguments for a tool whose argument schema is ``parameters``: its
    required arguments (or its first one when none is required).
    """
    return example_object(parameters, parameters, placeholders=placeholders)
