"""Compact, one-line renderings of tools for prompts (readable for small models).

:func:`describe_tool` renders a tool's name, arguments and description on one line::

    calculator(expression: string — an arithmetic expression) — Evaluate an arithmetic expression.
    search(query: string; limit: integer = 5 — results to return) — Search the web.

Types are written in a short JSON-flavoured notation: ``string``, ``integer``, ``number``,
``boolean``, ``list[string]``, ``{x: integer, y?: integer}``, ``dict[string, integer]``,
enumerations as ``"celsius" | "fahrenheit"``, optional values as ``integer | null``. An
argument with a default shows ``= default``; an optional one without a default is marked
``name?``. Arguments are separated by ``, `` or, when any has a description, by ``; ``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from gent_core.tools.base import Tool

__all__ = ["describe_arguments", "describe_signature", "describe_tool", "describe_tools"]

_MAX_DEPTH = 3
_MAX_DEFAULT = 30


def _literal(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= _MAX_DEFAULT else text[: _MAX_DEFAULT - 3] + "..."


def render_type(schema: Any, root: dict[str, Any], depth: int = 0) -> str:
    """Render the type a JSON Schema accepts (``list[integer]``, ``"a" | "b"``...)."""
    if not isinstance(schema, dict) or not schema:
        return "any"
    ref = schema.get("$ref")
    if isinstance(ref, str):
        name = ref.rsplit("/", 1)[-1]
        target = root.get("$defs", {}).get(name)
        if depth >= _MAX_DEPTH or not isinstance(target, dict):
            return name
        return render_type(target, root, depth + 1)
    if "const" in schema:
        return _literal(schema["const"])
    if isinstance(schema.get("enum"), list):
        return " | ".join(_literal(value) for value in schema["enum"])
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            return " | ".join(render_type(branch, root, depth) for branch in schema[key])
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(render_type({**schema, "type": item}, root, depth) for item in kind)
    if kind == "array":
        items = schema.get("items")
        return f"list[{render_type(items, root, depth + 1)}]" if items else "list"
    if kind == "object" or "properties" in schema:
        properties = schema.get("properties")
        if isinstance(properties, dict) and properties and depth < _MAX_DEPTH:
            return "{" + ", ".join(_render_arguments(schema, root, depth + 1, False)) + "}"
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and extra:
            return f"dict[string, {render_type(extra, root, depth + 1)}]"
        return "object"
    return str(kind) if isinstance(kind, str) else "any"


def _render_arguments(
    schema: dict[str, Any], root: dict[str, Any], depth: int, with_descriptions: bool
) -> list[str]:
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return []
    required = set(schema.get("required", ()))
    rendered: list[str] = []
    for name, sub in properties.items():
        sub = sub if isinstance(sub, dict) else {}
        marker = "" if name in required or "default" in sub else "?"
        text = f"{name}{marker}: {render_type(sub, root, depth)}"
        if "default" in sub:
            text += f" = {_literal(sub['default'])}"
        description = " ".join(str(sub.get("description", "")).split())
        if with_descriptions and description:
            text += f" — {description}"
        rendered.append(text)
    return rendered


def describe_arguments(tool: Tool, *, descriptions: bool = True) -> str:
    """Render a tool's arguments: ``expression: string — an arithmetic expression``.

    Args:
        tool: The tool.
        descriptions: Whether to include each argument's description.
    """
    schema = tool.parameters
    parts = _render_arguments(schema, schema, 0, descriptions)
    properties = schema.get("properties")
    described = descriptions and any(
        isinstance(sub, dict) and str(sub.get("description", "")).strip()
        for sub in (properties.values() if isinstance(properties, dict) else ())
    )
    return ("; " if described else ", ").join(parts)


def describe_signature(tool: Tool) -> str:
    """Render a signature without descriptions: ``search(query: string, limit: integer = 5)``."""
    return f"{tool.name}({describe_arguments(tool, descriptions=False)})"


def describe_tool(tool: Tool, *, full: bool = False) -> str:
    """Render a tool on one line: ``name(arguments) — description``.

    Args:
        tool: The tool.
        full: Include the whole description (joined on one line) instead of its first
            paragraph.
    """
    description = tool.description.strip()
    if not full:
        description = description.split("\n\n", 1)[0]
    description = " ".join(description.split())
    line = f"{tool.name}({describe_arguments(tool)})"
    return f"{line} — {description}" if description else line


def describe_tools(tools: Iterable[Tool], *, full: bool = False) -> str:
    """Render tools one per line, each starting with ``- ``."""
    return "\n".join(f"- {describe_tool(tool, full=full)}" for tool in tools)
