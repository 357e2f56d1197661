"""Example values from a JSON Schema: for prompt guidance and few-shot examples.

Every value is concrete and valid for the schema, never a placeholder such as ``"<query>"``
(a small model copies what it sees). Values come, in order of preference, from the schema's
``examples``, ``const``, ``default`` (when not null) or first ``enum`` value; then, for a
string, from its ``format`` (``date``, ``uri``...) or from an example its description gives
(``"an IANA time zone such as Europe/Paris"`` gives ``"Europe/Paris"``); else a small value
of the right type (``"example query"`` for a string named ``query``, ``3``, ``2.5``...).
Objects hold their required properties, arrays one item (or ``minItems``).

Example *calls* (:func:`example_calls`) prefer what a tool declares itself: the arguments of
its first :class:`~gent_core.tools.base.ToolExample`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from gent_core._schema_refs import follow_refs

__all__ = [
    "NamedSchema",
    "described_example",
    "example_arguments",
    "example_calls",
    "example_object",
    "example_value",
]

_STRING_FORMATS = {
    "date": "2024-05-01",
    "time": "09:30:00",
    "date-time": "2024-05-01T09:30:00Z",
    "uuid": "123e4567-e89b-12d3-a456-426614174000",
    "duration": "PT1H",
    "email": "ada@example.com",
    "uri": "https://example.com",
}
# "such as Europe/Paris;", "e.g. 'red'", "for example: `6 * 7`": a quoted example, or one
# word that ends the phrase (so "such as 17 * 23" gives nothing rather than "17").
_DESCRIBED = re.compile(
    r"\b(?:such as|e\.g\.,?|for example:?|for instance:?)\s+"
    r"(?:[\"'`](?P<quoted>[^\"'`\n]{1,60})[\"'`]"
    r"|(?P<word>[^\s,;()\"'`]{1,60}?)[.:!?]?(?=$|[,;)]|\s+(?:or|and)\b))",
    re.IGNORECASE,
)
_MAX_DEPTH = 4


class NamedSchema(Protocol):
    """Something with a name and a JSON Schema of its arguments (a tool)."""

    @property
    def name(self) -> str:
        """The name."""
        ...

    @property
    def parameters(self) -> dict[str, Any]:
        """The JSON Schema of the arguments."""
        ...


def _resolve(schema: Any, root: Mapping[str, Any]) -> Mapping[str, Any]:
    return follow_refs(schema, root) or {}


def described_example(schema: Mapping[str, Any]) -> str | None:
    """The example a string schema's description gives (``"such as Europe/Paris"``), if any.

    Only for plain strings (no ``pattern``, ``format`` or length bounds it could break).
    """
    if any(key in schema for key in ("pattern", "format", "maxLength", "minLength")):
        return None
    description = schema.get("description")
    if not isinstance(description, str):
        return None
    found = _DESCRIBED.search(description)
    if found is None:
        return None
    value = found.group("quoted") or found.group("word").rstrip(".:!?")
    return value or None


def _declared(schema: Mapping[str, Any]) -> tuple[bool, Any]:
    """Whether the schema itself gives an example value, and that value."""
    examples = schema.get("examples")
    if isinstance(examples, list) and examples:
        return True, examples[0]
    for key in ("const", "default"):
        if key in schema and schema[key] is not None:
            return True, schema[key]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return True, schema["enum"][0]
    return False, None


def _bound(schema: Mapping[str, Any], inclusive: str, exclusive: str) -> tuple[float, bool] | None:
    """The tighter of an inclusive and an exclusive bound: ``(bound, is_exclusive)``."""
    found = [
        (float(schema[key]), key == exclusive)
        for key in (inclusive, exclusive)
        if isinstance(schema.get(key), int | float) and not isinstance(schema.get(key), bool)
    ]
    if not found:
        return None
    tighter = max if inclusive == "minimum" else min
    return tighter(found, key=lambda bound: bound[0])


def _bounded_number(schema: Mapping[str, Any], integer: bool) -> int | float:
    """3 (an integer) or 2.5 (a number), moved inside the schema's bounds when it has any."""
    low = _bound(schema, "minimum", "exclusiveMinimum")
    high = _bound(schema, "maximum", "exclusiveMaximum")
    step = 1 if integer else 0.5
    value: float = 3 if integer else 2.5
    if low is not None and high is not None and not integer:
        value = (low[0] + high[0]) / 2
    else:
        if low is not None and (value < low[0] or (low[1] and value <= low[0])):
            value = low[0] + step if low[1] else low[0]
        if high is not None and (value > high[0] or (high[1] and value >= high[0])):
            value = high[0] - step if high[1] else high[0]
    if integer:
        whole = math.ceil(value) if low is not None else math.floor(value)
        return int(whole)
    return value


def example_value(schema: Any, root: Mapping[str, Any], name: str = "value", depth: int = 0) -> Any:
    """Return a concrete value valid for ``schema`` (see the module documentation).

    Args:
        schema: The (sub)schema.
        root: The whole schema, for ``$ref`` resolution.
        name: The property name, used in example strings.
        depth: Nesting depth (objects deeper than 4 levels are left empty).
    """
    schema = _resolve(schema, root)
    given, value = _declared(schema)
    if given:
        return value
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list):
            for branch in branches:
                if _resolve(branch, root).get("type") != "null":
                    merged = {**_resolve(branch, root)}
                    if "description" in schema:
                        merged.setdefault("description", schema["description"])
                    return example_value(merged, root, name, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((item for item in kind if item != "null"), "null")
    if kind == "object" or "properties" in schema:
        return example_object(schema, root, depth + 1) if depth < _MAX_DEPTH else {}
    if kind == "array":
        items = schema.get("items", {})
        count = max(1, int(schema.get("minItems", 1)))
        return [example_value(items, root, name, depth + 1) for _ in range(min(count, 3))]
    if kind in ("integer", "number"):
        return _bounded_number(schema, kind == "integer")
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    fmt = schema.get("format")
    if isinstance(fmt, str) and fmt in _STRING_FORMATS:
        return _STRING_FORMATS[fmt]
    described = described_example(schema)
    if described is not None:
        return described
    return f"example {name.replace('_', ' ')}"


def _has_own_example(schema: Any, root: Mapping[str, Any]) -> bool:
    resolved = _resolve(schema, root)
    if _declared(resolved)[0] or described_example(resolved) is not None:
        return True
    branches = [
        _resolve(branch, root)
        for key in ("anyOf", "oneOf")
        for branch in resolved.get(key, ())
        if isinstance(branch, Mapping)
    ]
    described = [{**branch, "description": resolved.get("description")} for branch in branches]
    return any(described_example(branch) is not None for branch in described)


def example_object(
    schema: Mapping[str, Any], root: Mapping[str, Any], depth: int = 0
) -> dict[str, Any]:
    """Return an example object: its required properties; when none is required, the first
    property whose schema gives an example (nothing when none does).
    """
    properties = schema.get("properties")
    if not isinstance(properties, Mapping) or not properties:
        return {}
    required = [key for key in schema.get("required", ()) if key in properties]
    names = required or [key for key in properties if _has_own_example(properties[key], root)][:1]
    return {key: example_value(properties[key], root, key, depth) for key in names}


def example_arguments(parameters: Mapping[str, Any]) -> dict[str, Any]:
    """Return example arguments for a tool whose argument schema is ``parameters``: its
    required arguments, or its first argument with an example of its own when none is
    required (see :func:`example_object`).
    """
    return example_object(parameters, parameters)


def _tool_arguments(tool: NamedSchema) -> dict[str, Any]:
    """The arguments of the tool's first declared example (``tool.examples``), else example
    arguments from its schema.
    """
    declared = getattr(tool, "examples", ())
    if declared:
        arguments = getattr(declared[0], "arguments", None)
        if isinstance(arguments, Mapping):
            return dict(arguments)
    return example_arguments(tool.parameters or {})


def example_calls(tools: Sequence[NamedSchema], count: int = 2) -> list[tuple[str, dict[str, Any]]]:
    """Return up to ``count`` example calls ``(tool name, arguments)`` of different tools.

    A tool that declares examples (:attr:`Tool.examples <gent_core.tools.base.Tool.examples>`)
    gives its first one's arguments; another gets arguments made from its schema. Tools whose
    example has arguments come first (a call with arguments shows more of the syntax),
    otherwise in the order given.
    """
    examples = [(tool.name, _tool_arguments(tool)) for tool in tools]
    examples.sort(key=lambda example: not example[1])
    return examples[:count]
