"""Turn a tool's raw output into JSON-ready data, for the tool chains that format it.

:func:`json_default` is the ``default=`` hook for :func:`json.dumps`; :func:`to_jsonable`
converts a whole value recursively (for formats such as YAML that have no such hook). Both
handle pydantic models, dataclasses, dates and times, durations, paths, sets, enums,
decimals, UUIDs and bytes; anything else is written with ``str()``.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime as dt
import enum
import json
import uuid
from collections.abc import Mapping
from decimal import Decimal
from pathlib import PurePath
from typing import Any

__all__ = ["dumps_json", "json_default", "to_jsonable"]

MAX_DEPTH = 100
"""Deepest nesting :func:`to_jsonable` follows (deeper data is probably cyclic)."""


def _sorted_if_possible(values: set[Any] | frozenset[Any]) -> list[Any]:
    try:
        return sorted(values)
    except TypeError:
        return list(values)


def json_default(value: Any) -> Any:
    """Return a JSON-ready stand-in for ``value`` (the ``default=`` of :func:`json.dumps`).

    Pydantic models give ``model_dump(mode="json")``; dataclasses a dict of their fields;
    dates, times and datetimes their ISO 8601 form; durations their seconds; paths, UUIDs and
    decimals their text; sets a (sorted when possible) list; enums their value; bytes their
    UTF-8 text, or base64 when they are not text; anything else ``str(value)``.
    """
    model_dump = getattr(type(value), "model_dump", None)
    if model_dump is not None and callable(model_dump):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: getattr(value, field.name) for field in dataclasses.fields(value)}
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, (set, frozenset)):
        return _sorted_if_possible(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (PurePath, uuid.UUID, Decimal)):
        return str(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        raw = bytes(value)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return base64.b64encode(raw).decode("ascii")
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (list, tuple)):
        return list(value)
    return str(value)


def _key(key: Any) -> str:
    if isinstance(key, str):
        return key
    if key is None or isinstance(key, (bool, int, float)):
        return json.dumps(key)
    converted = json_default(key)
    return converted if isinstance(converted, str) else str(key)


def to_jsonable(value: Any, _depth: int = 0) -> Any:
    """Return ``value`` as plain JSON data: dicts with string keys, lists, and scalars.

    Raises:
        ValueError: When the data nests deeper than :data:`MAX_DEPTH` (likely a cycle).
    """
    if _depth > MAX_DEPTH:
        raise ValueError(f"output nests deeper than {MAX_DEPTH} levels (is it cyclic?)")
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, dict):
        return {_key(key): to_jsonable(item, _depth + 1) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(item, _depth + 1) for item in value]
    return to_jsonable(json_default(value), _depth + 1)


def dumps_json(value: Any, *, indent: int | None = None) -> str:
    """Write ``value`` as JSON text (non-ASCII kept), converting with :func:`json_default`."""
    return json.dumps(value, ensure_ascii=False, indent=indent, default=json_default)
