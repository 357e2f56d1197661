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

from gent_core._schema_walk import expand_schemas, walk_location
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


def _accepted(schemas: list[dict[str, Any]], root: dict[str, Any]) -> list[str]:
    return [
        name
        for schema in expand_schemas(schemas, root)
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
            parent_parts, parent_schemas = walk_location(location[:-1], schema)
            parent = format_path(parent_parts)
            bucket = unknown if kind == "extra_forbidden" else missing
            bucket.setdefault(parent, []).append(location[-1])
            accepted[parent] = _accepted(parent_schemas, schema)
            continue
        parts, _ = walk_location(location, schema)
        got = f", got {show_value(detail['input'])}" if kind != "missing" else ""
        others.append(ArgumentProblem(format_path(parts), f"{_expectation(detail)}{got}"))
    problems = [unknown_problem(names, accepted[where], where) for where, names in unknown.items()]
    problems += [missing_problem(names, where) for where, names in missing.items()]
    return problems + merge_alternatives(others)
