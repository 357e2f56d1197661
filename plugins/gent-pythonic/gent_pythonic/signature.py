"""Tools as Python signatures, for the prompt: ``search(query: str, limit: int = 5)``.

Parameters are listed required first, then optional ones, each in the schema's order: the
order positional arguments follow (:func:`parameter_order`), the order the grammar writes
keyword arguments in, and the order Python itself requires (no required parameter after an
optional one).

Types are written as Python annotations: ``str``, ``int``, ``float``, ``bool``, ``None``,
``list[str]``, ``dict[str, int]``, ``Literal["en", "fr"]``, unions with ``|``, and an object
with known keys as a dict of them, ``{"x": float, "label": NotRequired[str]}``. An optional
parameter shows its default (``= 5``), or ``= ...`` when it has none (leave it out). A
parameter whose name is not a Python identifier is shown as ``**{"file-path": str}``, the
way it is passed; a tool taking any named arguments shows ``**kwargs: int``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gent_core.grammar import arguments_schema, follow_refs
from gent_core.tools.base import Tool
from gent_pythonic.writer import is_keyword_name, write_string, write_value

__all__ = [
    "describe_python_tools",
    "parameter_order",
    "python_signature",
    "python_type",
]

_MAX_DEPTH = 3
_MAX_DEFAULT = 30
_SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}


def _properties(schema: Mapping[str, Any]) -> Mapping[str, Any]:
    properties = schema.get("properties")
    return properties if isinstance(properties, Mapping) else {}


def parameter_order(schema: Mapping[str, Any]) -> list[str]:
    """The parameters of an argument schema: required ones first, then optional ones, each in
    schema order.
    """
    properties = _properties(schema)
    required = set(schema.get("required", ()))
    return [name for name in properties if name in required] + [
        name for name in properties if name not in required
    ]


def _literal(value: Any) -> str:
    try:
        text = write_value(value)
    except ValueError:
        text = repr(value)
    return text if len(text) <= _MAX_DEFAULT else text[: _MAX_DEFAULT - 3] + "..."


def _join(options: Iterable[str]) -> str:
    return " | ".join(dict.fromkeys(options))


def python_type(schema: Any, root: Mapping[str, Any], depth: int = 0) -> str:
    """The Python annotation of the values a JSON Schema accepts (``list[int]``,
    ``Literal["a", "b"]``, ``str | None``...).
    """
    resolved = follow_refs(schema, root)
    if not resolved:
        return "Any"
    if "const" in resolved:
        return f"Literal[{_literal(resolved['const'])}]"
    if isinstance(resolved.get("enum"), list) and resolved["enum"]:
        return "Literal[" + ", ".join(_literal(value) for value in resolved["enum"]) + "]"
    for key in ("anyOf", "oneOf"):
        branches = resolved.get(key)
        if isinstance(branches, list) and branches:
            return _join(python_type(branch, root, depth) for branch in branches)
    kind = resolved.get("type")
    if isinstance(kind, list):
        return _join(python_type({**resolved, "type": item}, root, depth) for item in kind)
    if isinstance(kind, str) and kind in _SCALARS:
        return _SCALARS[kind]
    if kind == "array" or "items" in resolved:
        items = resolved.get("items")
        if depth >= _MAX_DEPTH or not isinstance(items, Mapping) or not items:
            return "list"
        return f"list[{python_type(items, root, depth + 1)}]"
    if kind == "object" or "properties" in resolved:
        properties = _properties(resolved)
        if properties and depth < _MAX_DEPTH:
            required = set(resolved.get("required", ()))
            entries = []
            for name in parameter_order(resolved):
                value = python_type(properties[name], root, depth + 1)
                value = value if name in required else f"NotRequired[{value}]"
                entries.append(f"{write_string(name)}: {value}")
            return "{" + ", ".join(entries) + "}"
        extra = resolved.get("additionalProperties")
        if isinstance(extra, Mapping) and extra and depth < _MAX_DEPTH:
            return f"dict[str, {python_type(extra, root, depth + 1)}]"
        return "dict"
    return "Any"


def _parameters(schema: Mapping[str, Any]) -> list[str]:
    properties = _properties(schema)
    required = set(schema.get("required", ()))
    plain: list[str] = []
    unpacked: list[str] = []
    for name in parameter_order(schema):
        sub = properties[name] if isinstance(properties[name], Mapping) else {}
        annotation = python_type(sub, schema)
        if is_keyword_name(name):
            text = f"{name}: {annotation}"
            if name not in required:
                text += f" = {_literal(sub['default'])}" if "default" in sub else " = ..."
            plain.append(text)
        else:
            optional = "" if name in required else "NotRequired"
            shown = f"{optional}[{annotation}]" if optional else annotation
            unpacked.append(f"{write_string(name)}: {shown}")
    if unpacked:
        plain.append("**{" + ", ".join(unpacked) + "}")
    extra = schema.get("additionalProperties")
    if "properties" not in schema and extra is not False:  # any named arguments
        value = python_type(extra, schema) if isinstance(extra, Mapping) else "Any"
        plain.append(f"**kwargs: {value}")
    return plain


def python_signature(tool: Tool) -> str:
    """The tool as a Python signature: ``search(query: str, limit: int = 5)``.

    A tool without an argument schema takes no arguments (as in its grammar, see
    :func:`gent_core.grammar.arguments_schema`).
    """
    return f"{tool.name}({', '.join(_parameters(arguments_schema(tool)))})"


def _argument_notes(schema: Mapping[str, Any]) -> list[str]:
    properties = _properties(schema)
    notes = []
    for name in parameter_order(schema):
        sub = properties[name]
        description = (
            " ".join(str(sub.get("description", "")).split()) if isinstance(sub, Mapping) else ""
        )
        if description:
            notes.append(f"    {name}: {description}")
    return notes


def describe_python_tools(tools: Iterable[Tool]) -> str:
    """Every tool as ``- signature — description``, each described argument on an indented
    line below it.
    """
    lines = []
    for tool in tools:
        description = " ".join(tool.description.strip().split("\n\n", 1)[0].split())
        signature = python_signature(tool)
        lines.append(f"- {signature} — {description}" if description else f"- {signature}")
        lines.extend(_argument_notes(tool.parameters or {}))
    return "\n".join(lines)
