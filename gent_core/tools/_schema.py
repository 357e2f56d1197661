"""Tidying the JSON Schema pydantic generates, for models to read.

pydantic writes a ``title`` on every schema node (``"count": {"title": "Count", ...}``) and
puts nested models under ``$defs`` with ``$ref`` pointers. Models read a schema better
without the noise and with nested objects written in place, so :func:`clean_schema`:

* drops every ``title`` keyword (a *property* called ``title`` stays);
* inlines each ``$ref`` to a ``$defs`` entry that is not recursive, keeping the keywords
  written beside the ``$ref`` (a field's own ``description`` wins over the class docstring);
* keeps ``$defs`` only for recursive definitions (a tree node that contains nodes), whose
  ``$ref`` pointers stay valid.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = ["clean_schema", "iter_subschema_items", "iter_subschemas"]

_DEFS_PREFIX = "#/$defs/"

# Keywords whose value is a mapping of names to schemas.
_SCHEMA_MAPS = ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas")
# Keywords whose value is a schema.
_SCHEMA_VALUES = (
    "items",
    "additionalProperties",
    "not",
    "contains",
    "propertyNames",
    "if",
    "then",
    "else",
    "unevaluatedProperties",
    "unevaluatedItems",
)
# Keywords whose value is a list of schemas.
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")


def iter_subschema_items(
    schema: dict[str, Any],
) -> Iterator[tuple[tuple[str | int, ...], dict[str, Any]]]:
    """Yield ``(key path, schema)`` for the schemas directly inside ``schema`` (one level
    down): ``(("properties", "age"), {...})``, ``(("items",), {...})``, ``(("anyOf", 0), {...})``.
    """
    for key in _SCHEMA_MAPS:
        value = schema.get(key)
        if isinstance(value, dict):
            yield from (
                ((key, name), item) for name, item in value.items() if isinstance(item, dict)
            )
    for key in _SCHEMA_VALUES:
        value = schema.get(key)
        if isinstance(value, dict):
            yield (key,), value
    for key in _SCHEMA_LISTS:
        value = schema.get(key)
        if isinstance(value, list):
            yield from (((key, i), item) for i, item in enumerate(value) if isinstance(item, dict))


def iter_subschemas(schema: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Yield the schemas directly inside ``schema`` (one level down)."""
    return (item for _, item in iter_subschema_items(schema))


def _refs(schema: dict[str, Any]) -> Iterator[str]:
    """Yield the ``$defs`` names referenced anywhere inside ``schema``."""
    stack = [schema]
    while stack:
        node = stack.pop()
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(_DEFS_PREFIX):
            yield ref[len(_DEFS_PREFIX) :]
        stack.extend(iter_subschemas(node))


def _recursive_names(defs: dict[str, Any]) -> set[str]:
    """Names of the definitions that reach themselves through ``$ref`` pointers."""
    edges = {name: set(_refs(body)) for name, body in defs.items() if isinstance(body, dict)}
    recursive: set[str] = set()
    for name in edges:
        seen: set[str] = set()
        stack = list(edges[name])
        while stack:
            current = stack.pop()
            if current == name:
                recursive.add(name)
                break
            if current not in seen:
                seen.add(current)
                stack.extend(edges.get(current, ()))
    return recursive


def _clean(node: Any, defs: dict[str, Any], keep: set[str]) -> Any:
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith(_DEFS_PREFIX):
        name = ref[len(_DEFS_PREFIX) :]
        if name in defs and name not in keep:
            siblings = {key: value for key, value in node.items() if key != "$ref"}
            node = {**defs[name], **siblings}
    cleaned: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title" or key == "$defs":
            continue
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            cleaned[key] = {name: _clean(sub, defs, keep) for name, sub in value.items()}
        elif key in _SCHEMA_VALUES:
            cleaned[key] = _clean(value, defs, keep)
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            cleaned[key] = [_clean(sub, defs, keep) for sub in value]
        else:
            cleaned[key] = value
    return cleaned


def clean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Return a tidy copy of a pydantic-generated ``schema`` (see the module docstring)."""
    defs = schema.get("$defs", {})
    keep = _recursive_names(defs) if isinstance(defs, dict) else set()
    cleaned: dict[str, Any] = _clean(schema, defs, keep)
    if keep:
        cleaned["$defs"] = {name: _clean(defs[name], defs, keep) for name in sorted(keep)}
    return cleaned
