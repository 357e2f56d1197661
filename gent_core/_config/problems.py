"""Wording configuration problems: what was wrong, where, and what is accepted.

pydantic's messages are written for programmers (``Input should be a valid integer, unable
to parse string as an integer``) and its error locations include union member tags. This
module rewrites each error of a :class:`~pydantic.ValidationError` as a ``(key path,
message)`` pair, reading *what is accepted* from the model's JSON Schema (so a field
declared ``int`` with ``ge=1`` reads ``expected an integer >= 1, got 'many'``).

A value judged secret is never shown: it reads ``(secret value)``.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from typing import Any

from pydantic import ValidationError

from gent_core._config.yamldoc import KeyPath
from gent_core._schema_refs import follow_refs
from gent_core._schema_walk import expand_schemas, walk_location

__all__ = ["describe_schema", "problems_from_validation_error", "show_value", "unknown_problem"]

_MAX_SHOWN = 40
_MAX_DEPTH = 32

_PLURALS = {
    "string": "strings",
    "integer": "integers",
    "number": "numbers",
    "boolean": "booleans",
}

_BOUNDS = (
    (("minimum", "ge"), ">="),
    (("exclusiveMinimum", "gt"), ">"),
    (("maximum", "le"), "<="),
    (("exclusiveMaximum", "lt"), "<"),
)


def show_value(value: Any, *, secret: bool = False) -> str:
    """Render a value briefly for a message: ``'many'``, ``3``, ``true``, ``null``, ``a list``.

    Args:
        value: The value as written.
        secret: When true, the value is never shown (``(secret value)``).
    """
    if secret:
        return "(secret value)"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return repr(value if len(value) <= _MAX_SHOWN else value[:_MAX_SHOWN] + "...")
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return f"a {type(value).__name__}"


def _resolve(schema: Any, defs: dict[str, Any]) -> dict[str, Any]:
    """Follow ``$ref`` pointers (``#/$defs/Name``)."""
    resolved = follow_refs(schema, {"$defs": defs}, _MAX_DEPTH)
    return resolved if isinstance(resolved, dict) else {}


def _expand(schemas: Iterable[Any], defs: dict[str, Any]) -> list[dict[str, Any]]:
    """The branches of ``schemas`` (references followed, unions flattened), for wording."""
    return expand_schemas(schemas, {"$defs": defs}, leaves_only=True)


def _number(kind: str, schema: dict[str, Any]) -> str:
    text = "an integer" if kind == "integer" else "a number"
    bounds = [
        f"{symbol} {schema[key]}"
        for keys, symbol in _BOUNDS
        for key in keys
        if isinstance(schema.get(key), int | float)
    ]
    return f"{text} {' and '.join(bounds)}" if bounds else text


def _one(schema: dict[str, Any], defs: dict[str, Any], depth: int) -> str:
    if isinstance(schema.get("x-accepted"), str):
        return str(schema["x-accepted"])
    if "enum" in schema and isinstance(schema["enum"], list):
        choices = [show_value(choice) for choice in schema["enum"]]
        return choices[0] if len(choices) == 1 else "one of " + ", ".join(choices)
    if "const" in schema:
        return show_value(schema["const"])
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(_one({**schema, "type": item}, defs, depth) for item in kind)
    if kind in ("integer", "number"):
        return _number(kind, schema)
    if kind == "string":
        if schema.get("format") == "path":
            return "a path (a string)"
        if schema.get("minLength") == 1:
            return "a non-empty string"
        return "a string"
    if kind == "boolean":
        return "true or false"
    if kind == "null":
        return "null"
    if kind == "array":
        items = _expand([schema.get("items", {})], defs)
        plural = _PLURALS.get(str(items[0].get("type"))) if len(items) == 1 else None
        return f"a list of {plural}" if plural and "enum" not in items[0] else "a list"
    if kind == "object":
        properties = schema.get("properties")
        if isinstance(properties, dict) and properties and depth < 1:
            return "a mapping with keys " + ", ".join(properties)
        return "a mapping"
    return "any value"


def describe_schema(schema: Any, defs: dict[str, Any] | None = None, *, depth: int = 0) -> str:
    """Say in words what ``schema`` accepts: ``an integer >= 1``, ``a number > 0 or null``.

    Args:
        schema: A JSON Schema (from pydantic).
        defs: The ``$defs`` its references point into.
        depth: Nesting level (mappings are detailed only at the top).
    """
    defs = defs or {}
    resolved = _resolve(schema, defs)
    if isinstance(resolved.get("x-accepted"), str):
        return str(resolved["x-accepted"])
    words: list[str] = []
    for branch in _expand([resolved], defs):
        text = _one(branch, defs, depth)
        if text not in words:
            words.append(text)
    return " or ".join(words) if words else "any value"


def _accepted_keys(schemas: list[dict[str, Any]], defs: dict[str, Any]) -> list[str]:
    keys: list[str] = []
    for schema in expand_schemas(schemas, {"$defs": defs}):
        properties = schema.get("properties")
        if isinstance(properties, dict):
            keys.extend(key for key in properties if key not in keys)
    return keys


def unknown_problem(key: str, accepted: list[str], noun: str) -> str:
    """The message for an unknown key: the closest accepted key, then every accepted one."""
    message = f"unknown {noun} {key!r}"
    close = difflib.get_close_matches(key, accepted, n=1, cutoff=0.6)
    if close:
        message += f" (did you mean {close[0]!r}?)"
    listed = ", ".join(accepted) if accepted else "(none)"
    return f"{message}; accepted {noun}s: {listed}"


def _from_message(message: str) -> str:
    for prefix in ("Value error, ", "Assertion failed, "):
        if message.startswith(prefix):
            return message.removeprefix(prefix)
    if message.startswith("Input should be "):
        return "expected " + message.removeprefix("Input should be ")
    return message[:1].lower() + message[1:]


def _length_problem(
    kind: str, context: dict[str, Any], schemas: list[dict[str, Any]], defs: dict[str, Any]
) -> str:
    """A list (or mapping) with too few or too many items: ``"the list must not be empty;
    expected a list of mappings with at least 1 item"``, never "expected a list, got a list".
    """
    expected = " or ".join(dict.fromkeys(describe_schema(item, defs) for item in schemas))
    expected = expected or "a list"
    noun = {"dictionary": "mapping"}.get(str(context.get("field_type", "")).lower(), "list")
    actual = context.get("actual_length")
    if kind == "too_short":
        least = context.get("min_length", 1)
        wanted = f"expected {expected} with at least {least} item{'s' * (least != 1)}"
        if least == 1:
            return f"the {noun} must not be empty; {wanted}"
        return f"{wanted}, got {actual}"
    most = context.get("max_length")
    return f"expected {expected} with at most {most} item{'s' * (most != 1)}, got {actual}"


def problems_from_validation_error(
    error: ValidationError,
    schema: dict[str, Any],
    *,
    noun: str = "key",
    is_secret: Callable[[KeyPath, Any], bool] = lambda path, value: False,
) -> list[tuple[KeyPath, str]]:
    """Rewrite each error of ``error`` as ``(key path, message)``.

    Args:
        error: What pydantic raised.
        schema: The JSON Schema of the model that was validated.
        noun: What a mapping key is called in messages (``key``, ``option``).
        is_secret: Whether the value at a key path must not be shown.

    Returns:
        One pair per distinct problem, in pydantic's order.
    """
    defs = schema.get("$defs", {})
    problems: list[tuple[KeyPath, str]] = []
    for detail in error.errors(include_url=False):
        location = tuple(detail["loc"])
        kind = detail["type"]
        if kind in ("extra_forbidden", "missing") and location and isinstance(location[-1], str):
            parent, parent_schemas = walk_location(location[:-1], schema)
            key = location[-1]
            path: KeyPath = (*parent, key)
            if kind == "extra_forbidden":
                message = unknown_problem(key, _accepted_keys(parent_schemas, defs), noun)
            else:
                fields = [
                    item["properties"][key]
                    for item in expand_schemas(parent_schemas, schema)
                    if isinstance(item.get("properties"), dict) and key in item["properties"]
                ]
                accepted = describe_schema(fields[0], defs) if fields else "any value"
                expected = f" (expected {accepted})" if accepted != "any value" else ""
                message = f"missing required {noun} {key!r}{expected}"
        else:
            parts, schemas = walk_location(location, schema)
            path = tuple(parts)
            shown = show_value(detail.get("input"), secret=is_secret(path, detail.get("input")))
            if kind in ("too_short", "too_long") and isinstance(detail.get("ctx"), dict):
                message = _length_problem(kind, detail["ctx"], schemas, defs)
            elif kind in ("value_error", "assertion_error") or not schemas:
                message = _from_message(detail["msg"])
                if message.startswith("expected ") and ", got " not in message:
                    message += f", got {shown}"
            else:
                expected = " or ".join(
                    dict.fromkeys(describe_schema(item, defs) for item in schemas)
                )
                message = f"expected {expected}, got {shown}"
        if (path, message) not in problems:
            problems.append((path, message))
    return problems
