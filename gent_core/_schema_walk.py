"""Walking a JSON Schema along a pydantic error location, for messages that say where a
value was wrong and what is accepted there.

pydantic's error locations mix the keys and indexes of the value with union member tags
(``('limits', 'int', 'max_steps')``). :func:`walk_location` keeps the parts that are keys or
indexes by following the schema: the configuration errors and the tool argument errors both
word their problems with it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gent_core._schema_refs import follow_refs

__all__ = ["expand_schemas", "walk_location"]

_MAX_VISITS = 256
_MAX_REF_HOPS = 32


def expand_schemas(
    schemas: Iterable[Any], root: Mapping[str, Any], *, leaves_only: bool = False
) -> list[dict[str, Any]]:
    """Follow local ``$ref`` pointers (into ``root``) and flatten ``anyOf``/``oneOf``/``allOf``.

    A pointer that names nothing, and anything that is not a mapping, is dropped; a schema
    reached twice (a cycle through ``$ref``) is expanded once. At most 256 schemas are
    visited (a huge schema ends the expansion there).

    Args:
        schemas: The schemas to expand, in order.
        root: The document the pointers point into (the schema holding ``$defs``).
        leaves_only: Keep only the branches, not a schema made of branches (for wording what
            is accepted); by default a union schema is kept too, before its branches, so the
            keys it declares next to its branches are found.

    Returns:
        The schemas, depth first in the order written.
    """
    result: list[dict[str, Any]] = []
    stack = list(schemas)[::-1]
    seen: set[int] = set()
    while stack and len(seen) < _MAX_VISITS:
        schema = follow_refs(stack.pop(), root, _MAX_REF_HOPS)
        if schema is None or id(schema) in seen:
            continue
        seen.add(id(schema))
        branches = [
            branch
            for key in ("anyOf", "oneOf", "allOf")
            for branch in schema.get(key, ())
            if isinstance(branch, Mapping)
        ]
        stack.extend(reversed(branches))
        if not (branches and leaves_only):
            result.append(dict(schema))
    return result


def walk_location(
    location: Iterable[str | int], root: Mapping[str, Any]
) -> tuple[list[str | int], list[dict[str, Any]]]:
    """Keep the parts of a pydantic error location that are keys or indexes (drop union tags).

    An index goes through ``items`` and ``prefixItems``; a name through ``properties`` or
    ``additionalProperties`` (a schema, or ``true`` for any key where the schema is no
    union); a name that none of the schemas at that point can hold is a union member tag
    (``'int'``, ``'dict[str,any]'``, ``'function-after[...]'``) and is dropped. Where the
    schema is unknown, every part is kept.

    Returns:
        The key path, and the schemas that apply at its end, not expanded (empty when
        unknown).
    """
    parts: list[str | int] = []
    candidates: list[dict[str, Any]] = [dict(root)]
    for part in location:
        expanded = expand_schemas(candidates, root)
        if isinstance(part, int):
            candidates = [
                schema["items"] for schema in expanded if isinstance(schema.get("items"), dict)
            ]
            candidates += [
                schema["prefixItems"][part]
                for schema in expanded
                if isinstance(schema.get("prefixItems"), list)
                and 0 <= part < len(schema["prefixItems"])
                and isinstance(schema["prefixItems"][part], dict)
            ]
            parts.append(part)
            continue
        named = [
            schema["properties"][part]
            for schema in expanded
            if isinstance(schema.get("properties"), dict)
            and isinstance(schema["properties"].get(part), dict)
        ]
        extra = [
            schema["additionalProperties"]
            for schema in expanded
            if isinstance(schema.get("additionalProperties"), dict)
        ]
        union = any(schema.get("anyOf") or schema.get("oneOf") for schema in expanded)
        open_mapping = not union and any(
            schema.get("additionalProperties") is True for schema in expanded
        )
        if named or extra or open_mapping or not expanded:
            parts.append(part)
            candidates = named or extra
    return parts, candidates
