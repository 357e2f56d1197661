"""Reference calls: the calls a task's possible answer describes, each argument given its first
accepted value. For dry runs (what a perfect model would write) and tests.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["reference_calls"]


def _first(accepted: Any) -> tuple[bool, Any]:
    """``(present, value)``: the first accepted value, or not present when it is ``""`` (the
    argument may be left out) or nothing is accepted.
    """
    if not isinstance(accepted, list) or not accepted or accepted[0] == "":
        return False, None
    return True, accepted[0]


def _resolve_dict(value: Any) -> Any:
    """A dictionary of accepted values per key, as a dictionary of first values."""
    if not isinstance(value, dict):
        return value
    resolved = {}
    for key, accepted in value.items():
        present, first = _first(accepted)
        if present:
            resolved[key] = first
    return resolved


def _declared(function: Mapping[str, Any] | None, param: str) -> tuple[Any, Any]:
    details = (function or {}).get("parameters", {}).get("properties", {}).get(param, {})
    items = details.get("items", {}) if isinstance(details, Mapping) else {}
    return details.get("type"), items.get("type") if isinstance(items, Mapping) else None


def reference_calls(
    possible_answer: Sequence[Mapping[str, Mapping[str, Any]]],
    functions: Sequence[Mapping[str, Any]] = (),
) -> list[dict[str, dict[str, Any]]]:
    """The calls of ``possible_answer`` with the first accepted value of every argument.

    An argument whose first accepted value is ``""`` (may be left out) is left out. For a
    parameter the function docs declare a ``dict`` (or an array of ``dict``), the accepted
    value is itself a dictionary of accepted values per key, resolved the same way.
    """
    by_name = {str(function.get("name")): function for function in functions}
    calls: list[dict[str, dict[str, Any]]] = []
    for expected in possible_answer:
        for name, arguments in expected.items():
            call: dict[str, Any] = {}
            for param, accepted in arguments.items():
                present, value = _first(accepted)
                if not present:
                    continue
                declared, items = _declared(by_name.get(name), param)
                if declared == "dict":
                    value = _resolve_dict(value)
                elif declared in ("array", "tuple") and items == "dict" and isinstance(value, list):
                    value = [_resolve_dict(item) for item in value]
                call[param] = value
            calls.append({name: call})
    return calls
