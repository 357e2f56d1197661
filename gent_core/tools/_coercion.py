"""JSON types and the coercions applied to tool arguments written by models.

:func:`coerce_json_type` checks a value against one JSON Schema type and, when allowed,
converts what models commonly get wrong: a string holding an integer, a number or a boolean
(``"7"``, ``"2.5"``, ``"true"``/``"false"``/``"yes"``/``"no"``) becomes that value; a number
becomes a string where a string is expected; ``0``/``1`` become booleans. A whole float
(``7.0``) is always an integer, as in JSON Schema.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any, TypeGuard

__all__ = ["coerce_json_type", "is_number", "json_equal"]

_INTEGER = re.compile(r"[+-]?\d{1,300}")
_NUMBER = re.compile(r"[+-]?(?:\d{1,300}(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,4})?")
_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


def json_equal(left: Any, right: Any) -> bool:
    """JSON equality: ``true`` is not ``1``, ``1`` is ``1.0``."""
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left == right
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(map(json_equal, left, right))
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(json_equal(left[k], right[k]) for k in left)
    return bool(left == right) and (isinstance(left, int | float) == isinstance(right, int | float))


def is_number(value: object) -> TypeGuard[int | float]:
    """Whether ``value`` is a JSON number (an ``int`` or ``float``, not a ``bool``)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def coerce_json_type(kind: str, value: Any, coerce: bool) -> tuple[bool, Any]:
    """Check ``value`` against the JSON type ``kind``.

    Args:
        kind: ``"string"``, ``"integer"``, ``"number"``, ``"boolean"``, ``"null"``,
            ``"array"`` or ``"object"``.
        value: The value the model wrote.
        coerce: Whether to convert a near miss (``"7"`` for an integer).

    Returns:
        ``(matches, value)``: whether it is (or was converted to) that type, and the value.
    """
    if kind == "string":
        if isinstance(value, str):
            return True, value
        return (True, str(value)) if coerce and is_number(value) else (False, value)
    if kind == "integer":
        if isinstance(value, int) and not isinstance(value, bool):
            return True, value
        if isinstance(value, float) and value.is_integer():
            return True, int(value)
        if coerce and isinstance(value, str):
            text = value.strip()
            if _INTEGER.fullmatch(text):
                return True, int(text)
            if _NUMBER.fullmatch(text) and float(text).is_integer():
                return True, int(float(text))
        return False, value
    if kind == "number":
        if is_number(value):
            return True, value
        if coerce and isinstance(value, str) and _NUMBER.fullmatch(text := value.strip()):
            number = int(text) if _INTEGER.fullmatch(text) else float(text)
            finite = isinstance(number, int) or math.isfinite(number)
            return (True, number) if finite else (False, value)
        return False, value
    if kind == "boolean":
        if isinstance(value, bool):
            return True, value
        if coerce and isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return True, value.strip().lower() in _TRUE
        if coerce and isinstance(value, int) and value in (0, 1):
            return True, bool(value)
        return False, value
    if kind == "null":
        return value is None, value
    if kind == "array":
        if isinstance(value, list | tuple):
            return True, list(value)
        return False, value
    if kind == "object":
        return (True, dict(value)) if isinstance(value, Mapping) else (False, value)
    return True, value  # unknown types are rejected when the schema is checked
