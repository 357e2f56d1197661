"""Build Python values from composed YAML nodes, guided by a tool's JSON Schema.

Only the core tags are accepted (``str``, ``int``, ``float``, ``bool``, ``null``, ``map``,
``seq``); any other tag (``!!python/object``, ``!!binary``, a local ``!tag``...) is refused
with :class:`YAMLTagError`, so converting never runs code and never builds objects.

A scalar whose schema accepts a string but not the type YAML resolved it to keeps the text
the model wrote: with ``version: {"type": "string"}``, ``version: 1.10`` gives ``"1.10"``,
not ``1.1``; ``zip: 01234`` gives ``"01234"``. Null stays null (``~``, ``null``, empty), so a
missing value is reported by validation rather than turned into the text ``"null"``. Without
a schema (an unknown tool), values follow the YAML 1.2 core schema.
"""

from __future__ import annotations

import math
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from gent_core.bounds import MAX_INT_DIGITS, ValueBoundsError, check_value
from gent_core.grammar import follow_refs
from gent_core.textscan import quote_start

__all__ = ["YAMLTagError", "accepted_types", "check_collection_tag", "key_text", "to_python"]

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_MAX_REF_HOPS = 20

Schema = dict[str, Any]


class YAMLTagError(yaml.MarkedYAMLError):
    """A node has a tag that is not a core tag, or a value its tag does not allow."""


def _tag_name(tag: str) -> str:
    prefix = "tag:yaml.org,2002:"
    return "!!" + tag[len(prefix) :] if tag.startswith(prefix) else tag


def _refuse(node: Node, problem: str) -> YAMLTagError:
    return YAMLTagError(None, None, problem, node.start_mark)


# --------------------------------------------------------------------------- schemas


def _resolve(schema: Any, root: Schema) -> Schema | None:
    """Follow local ``$ref`` pointers; ``None`` means "any value"."""
    resolved = follow_refs(schema, root, _MAX_REF_HOPS)
    return resolved if isinstance(resolved, dict) and resolved else None


def _branches(schema: Schema) -> list[Any]:
    found: list[Any] = []
    for key in ("anyOf", "oneOf", "allOf"):
        if isinstance(schema.get(key), list):
            found.extend(schema[key])
    return found


def _value_type(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return "string" if isinstance(value, str) else "null"


def accepted_types(schema: Any, root: Schema, _depth: int = 0) -> frozenset[str] | None:
    """Return the JSON types ``schema`` accepts, or ``None`` when it accepts anything."""
    resolved = _resolve(schema, root)
    if resolved is None or _depth > _MAX_REF_HOPS:
        return None
    types: set[str] = set()
    constrained = False
    kind = resolved.get("type")
    if isinstance(kind, str):
        types.add(kind)
        constrained = True
    elif isinstance(kind, list):
        types.update(str(item) for item in kind)
        constrained = True
    values = resolved.get("enum") if isinstance(resolved.get("enum"), list) else None
    if "const" in resolved:
        values = [resolved["const"]]
    if values is not None:
        types.update(_value_type(value) for value in values)
        constrained = True
    for branch in _branches(resolved):
        branch_types = accepted_types(branch, root, _depth + 1)
        if branch_types is None:
            return None
        types |= branch_types
        constrained = True
    return frozenset(types) if constrained else None


def _property(schema: Any, root: Schema, key: str, depth: int = 0) -> Any:
    resolved = _resolve(schema, root)
    if resolved is None or depth > _MAX_REF_HOPS:
        return None
    properties = resolved.get("properties")
    if isinstance(properties, dict) and key in properties:
        return properties[key]
    for branch in _branches(resolved):
        found = _property(branch, root, key, depth + 1)
        if found is not None:
            return found
    extra = resolved.get("additionalProperties")
    return extra if isinstance(extra, dict) else None


def _items(schema: Any, root: Schema, depth: int = 0) -> Any:
    resolved = _resolve(schema, root)
    if resolved is None or depth > _MAX_REF_HOPS:
        return None
    if isinstance(resolved.get("items"), dict):
        return resolved["items"]
    for branch in _branches(resolved):
        found = _items(branch, root, depth + 1)
        if found is not None:
            return found
    return None


# --------------------------------------------------------------------------- scalars


def _too_long(text: str) -> str:
    return (
        f"the integer {quote_start(text, 20)!r} has more than {MAX_INT_DIGITS} decimal digits "
        "(quote it to pass it as text)"
    )


def _core_value(node: ScalarNode) -> Any:
    text = node.value
    try:
        if node.tag == _INT:
            sign = -1 if text.startswith("-") else 1
            digits = text.lstrip("+-")
            if digits.startswith(("0o", "0x")):
                value = sign * int(digits[2:], 8 if digits[1] == "o" else 16)
            elif len(digits) > MAX_INT_DIGITS:
                raise _refuse(node, _too_long(text))
            else:
                value = sign * int(digits, 10)
            try:
                check_value(value)
            except ValueBoundsError:
                raise _refuse(node, _too_long(text)) from None
            return value
        if node.tag == _FLOAT:
            lowered = text.lower()
            if lowered.lstrip("+-") == ".inf":
                return -math.inf if lowered.startswith("-") else math.inf
            if lowered == ".nan":
                return math.nan
            return float(text)
    except ValueError:
        shown = quote_start(text)
        raise _refuse(node, f"{shown!r} is not a valid {_tag_name(node.tag)}") from None
    if node.tag == _BOOL:
        if text.lower() in ("true", "false"):
            return text.lower() == "true"
        raise _refuse(node, f"{text!r} is not a boolean (write true or false)")
    if node.tag == _NULL:
        if text in ("", "~", "null", "Null", "NULL"):
            return None
        raise _refuse(node, f"{text!r} is not null")
    raise _refuse(node, f"the tag {_tag_name(node.tag)} is not allowed; write plain values")


def _scalar(node: ScalarNode, schema: Any, root: Schema) -> Any:
    if node.tag == _STR:
        return node.value
    value = _core_value(node)
    if value is None:
        return None
    types = accepted_types(schema, root)
    if types is not None and "string" in types:
        kind = _value_type(value)
        if kind not in types and not (kind == "integer" and "number" in types):
            return node.value  # the tool expects text: keep what the model wrote
    return value


# --------------------------------------------------------------------------- nodes


def key_text(node: Node) -> str:
    """Return a mapping key's text (keys are always strings in tool calls).

    Raises:
        YAMLTagError: When the key is not a scalar.
    """
    if not isinstance(node, ScalarNode):
        raise _refuse(node, "a mapping key must be a plain name, not a list or a mapping")
    if node.tag not in (_STR, _INT, _FLOAT, _BOOL, _NULL):
        raise _refuse(node, f"the tag {_tag_name(node.tag)} is not allowed; write plain values")
    return str(node.value)


def check_collection_tag(node: MappingNode | SequenceNode) -> None:
    """Refuse a mapping or list with a tag other than the core ``map``/``seq`` tags.

    Raises:
        YAMLTagError: Naming the tag.
    """
    if isinstance(node, SequenceNode) and node.tag != _SEQ:
        raise _refuse(node, f"the tag {_tag_name(node.tag)} is not allowed; write a plain list")
    if isinstance(node, MappingNode) and node.tag != _MAP:
        raise _refuse(node, f"the tag {_tag_name(node.tag)} is not allowed; write a plain mapping")


def to_python(node: Node, schema: Any = None, root: Schema | None = None) -> Any:
    """Build the value of ``node``, keeping text where ``schema`` expects a string.

    Args:
        node: A composed node (from :func:`gent_yaml.loader.compose_documents`).
        schema: The JSON Schema the value should match, or ``None`` for any value.
        root: The schema document ``$ref`` pointers resolve against (defaults to ``schema``).

    Raises:
        YAMLTagError: A node has a tag other than the core ones.
    """
    base: Schema = root if root is not None else (schema if isinstance(schema, dict) else {})
    if isinstance(node, ScalarNode):
        return _scalar(node, schema, base)
    if isinstance(node, SequenceNode):
        check_collection_tag(node)
        item_schema = _items(schema, base)
        return [to_python(child, item_schema, base) for child in node.value]
    if isinstance(node, MappingNode):
        check_collection_tag(node)
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = key_text(key_node)
            result[key] = to_python(value_node, _property(schema, base, key), base)
        return result
    raise _refuse(node, "unsupported YAML node")
