"""Turning a pydantic :class:`~pydantic.ValidationError` into model-readable problems.

pydantic's messages are written for programmers (``Input should be a valid integer, unable to
parse string as an integer``) and its error locations include union member tags
(``('value', 'int')``). :func:`problems_from_validation_error` rewrites each error as an
:class:`~gent_core.tools._arguments.ArgumentProblem` (``Argument 'count': expected an integer,
got 'seven'``), walking the tool's JSON Schema to tell argument names from union tags.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from gent_core.tools._arguments import (
    TYPE_WORDS,
    ArgumentProblem,
    format_path,
    merge_alternatives,
    missing_problem,
    show_value,
    unknown_problem,
)

__all__ = ["problems_from_validation_error"]

_EXPECTED: dict[str, str] = {
    **dict.fromkeys(("int_type", "int_parsing", "int_from_float", "int_parsing_size"), "integer"),
    **dict.fromkeys(("float_type", "float_parsing", "finite_number"), "number"),
    **dict.fromkeys(("bool_type", "bool_parsing"), "boolean"),
    **dict.fromkeys(("string_type", "string_unicode", "string_sub_type"), "string"),
    **dict.fromkeys(
        ("list_type", "tuple_type", "set_type", "frozen_set_type", "iterable_type"), "array"
    ),
    **dict.fromkeys(
        ("dict_type", "model_type", "model_attributes_type", "dataclass_type", "mapping_type"),
        "object",
    ),
    "none_required": "null",
}


def _expand(schemas: list[dict[str, Any]], root: dict[str, Any]) -> list[dict[str, Any]]:
    """Resolve ``$ref`` pointers and flatten ``anyOf``/``oneOf``/``allOf`` branches."""
    result: list[dict[str, Any]] = []
    stack = list(reversed(schemas))
    seen = 0
    while stack and seen < 64:
        seen += 1
        schema = stack.pop()
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            target = root.get("$defs", {}).get(ref[len("#/$defs/") :])
            if isinstance(target, dict):
                stack.append(target)
            continue
        branches = [
            branch
            for key in ("anyOf", "oneOf", "allOf")
            for branch in schema.get(key, [])
            if isinstance(branch, dict)
        ]
        stack.extend(reversed(branches))
        result.append(schema)
    return result


def _walk(
    location: tuple[str | int, ...], root: dict[str, Any]
) -> tuple[list[str | int], list[dict[str, Any]]]:
    """Keep the parts of ``location`` that are argument names or indexes (not union tags).

    Returns:
        The path parts, and the schemas that apply at the end of the path.
    """
    parts: list[str | int] = []
    candidates = [root]
    for part in location:
        expanded = _expand(candidates, root)
        if isinstance(part, int):
            items = [
                schema["items"] for schema in expanded if isinstance(schema.get("items"), dict)
            ]
            items += [
                schema["prefixItems"][part]
                for schema in expanded
                if isinstance(schema.get("prefixItems"), list) and part < len(schema["prefixItems"])
            ]
            parts.append(part)
            candidates = items
            continue
        named = [
            schema["properties"][part]
            for schema in expanded
            if isinstance(schema.get("properties"), dict) and part in schema["properties"]
        ]
        extra = [
            schema["additionalProperties"]
            for schema in expanded
            if isinstance(schema.get("additionalProperties"), dict)
        ]
        if named or extra or not expanded:
            parts.append(part)
            candidates = named or extra
        # otherwise the part is a union member tag such as 'int' or 'list[str]'
    return parts, _expand(candidates, root)


def _accepted(schemas: list[dict[str, Any]]) -> list[str]:
    return [
        name
        for schema in schemas
        if isinstance(schema.get("properties"), dict)
        for name in schema["properties"]
    ]


def _expectation(error: ErrorDetails) -> str:
    """What was expected, from the error type (``expected an integer``)."""
    kind = error["type"]
    if kind in _EXPECTED:
        return f"expected {TYPE_WORDS[_EXPECTED[kind]]}"
    ctx = error.get("ctx") or {}
    if kind in ("literal_error", "enum") and "expected" in ctx:
        return f"expected {ctx['expected']}"
    message = error["msg"]
    if message.startswith("Value error, "):
        return message.removeprefix("Value error, ")
    if message.startswith("Input should be "):
        rest = message.removeprefix("Input should be ")
        article = rest.startswith(("a ", "an ", "'", '"'))
        return f"expected {rest}" if article else f"expected a value {rest}"
    return message[:1].lower() + message[1:]


def problems_from_validation_error(
    error: ValidationError, schema: dict[str, Any]
) -> list[ArgumentProblem]:
    """Rewrite the errors of ``error`` as problems, worded for the model.

    Args:
        error: What pydantic raised while validating the arguments.
        schema: The tool's (tidy) argument schema, used to read error locations.
    """
    unknown: dict[str, list[str]] = {}
    missing: dict[str, list[str]] = {}
    accepted: dict[str, list[str]] = {}
    others: list[ArgumentProblem] = []
    for detail in error.errors(include_url=False):
        location = tuple(detail["loc"])
        kind = detail["type"]
        if kind in ("extra_forbidden", "missing") and location and isinstance(location[-1], str):
            parent_parts, parent_schemas = _walk(location[:-1], schema)
            parent = format_path(parent_parts)
            bucket = unknown if kind == "extra_forbidden" else missing
            bucket.setdefault(parent, []).append(location[-1])
            accepted[parent] = _accepted(parent_schemas)
            continue
        parts, _ = _walk(location, schema)
        got = f", got {show_value(detail['input'])}" if kind != "missing" else ""
        others.append(ArgumentProblem(format_path(parts), f"{_expectation(detail)}{got}"))
    problems = [unknown_problem(names, accepted[where], where) for where, names in unknown.items()]
    problems += [missing_problem(names, where) for where, names in missing.items()]
    return problems + merge_alternatives(others)
