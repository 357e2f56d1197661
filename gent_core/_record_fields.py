"""Reading records back from JSON (transcript lines) with a precise error for every bad field.

A transcript is a file, so it may be damaged or edited by hand: every field read through a
:class:`FieldReader` is checked, and a bad one raises :class:`RecordError` naming the field
(``'calls[0].tool' must be a string, got 7``). The transcript reader adds the file and line.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, TypeVar

__all__ = ["MISSING", "FieldReader", "RecordError"]

T = TypeVar("T")

MISSING: Any = object()
"""Marks a field without default: it must be present."""


class RecordError(ValueError):
    """A record (a transcript line) has a missing or invalid field; the message names it."""


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class FieldReader:
    """Reads the fields of one JSON object, checking each.

    Args:
        data: The object.
        where: The path of the object in its record, as a prefix for messages (``"calls[0]."``).

    Raises:
        RecordError: When ``data`` is not an object.
    """

    def __init__(self, data: Any, where: str = "") -> None:
        if not isinstance(data, Mapping):
            name = where.rstrip(".") or "the line"
            raise RecordError(f"'{name}' must be an object, got {_shown(data)}")
        self.data = data
        self.where = where

    def _name(self, key: str) -> str:
        return f"'{self.where}{key}'"

    def get(self, key: str, check: Callable[[Any], bool], described: str, default: Any) -> Any:
        """The field ``key``, checked by ``check`` (described as ``described`` in errors)."""
        if key not in self.data:
            if default is MISSING:
                raise RecordError(f"missing {self._name(key)}")
            return default
        value = self.data[key]
        if not check(value):
            raise RecordError(f"{self._name(key)} must be {described}, got {_shown(value)}")
        return value

    def integer(self, key: str, default: Any = MISSING, *, optional: bool = False) -> Any:
        """An integer field (``None`` allowed when ``optional``)."""
        return self.get(
            key,
            lambda v: (v is None and optional) or (isinstance(v, int) and not isinstance(v, bool)),
            "an integer",
            default,
        )

    def number(self, key: str, default: Any = MISSING) -> float:
        """A number field, as a float."""
        value = self.get(
            key,
            lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
            "a number",
            default,
        )
        return float(value)

    def boolean(self, key: str, default: Any = MISSING) -> bool:
        """A boolean field."""
        value: bool = self.get(key, lambda v: isinstance(v, bool), "true or false", default)
        return value

    def text(self, key: str, default: Any = MISSING, *, optional: bool = False) -> Any:
        """A string field (``None`` allowed when ``optional``)."""
        return self.get(
            key,
            lambda v: isinstance(v, str) or (v is None and optional),
            "a string" + (" or null" if optional else ""),
            default,
        )

    def choice(self, key: str, options: Collection[str], default: Any = MISSING) -> Any:
        """A string field that must be one of ``options``."""
        listed = ", ".join(repr(option) for option in options)
        return self.get(key, lambda v: v in options, f"one of {listed}", default)

    def items(self, key: str, default: Any = MISSING) -> list[Any]:
        """A list field."""
        value: list[Any] = self.get(key, lambda v: isinstance(v, list), "a list", default)
        return value

    def objects(self, key: str, read: Callable[[FieldReader], T], default: Any = ()) -> list[T]:
        """A list of objects, each read by ``read`` with its own reader (``key[0].``)."""
        return [
            read(FieldReader(item, f"{self.where}{key}[{index}]."))
            for index, item in enumerate(self.items(key, list(default)))
        ]

    def strings(self, key: str) -> list[str]:
        """A list of strings (empty when absent)."""
        values = self.items(key, [])
        for index, value in enumerate(values):
            if not isinstance(value, str):
                raise RecordError(
                    f"{self._name(f'{key}[{index}]')} must be a string, got {_shown(value)}"
                )
        return list(values)

    def child(self, key: str, default: Any = MISSING) -> FieldReader:
        """A reader for the object in field ``key`` (an empty one when absent with a default)."""
        value = self.get(key, lambda v: isinstance(v, Mapping), "an object", default)
        return FieldReader(value, f"{self.where}{key}.")
