"""BFCL's rules for one argument: its type, and whether its value is among the accepted ones.

Re-implemented from ``bfcl_eval/eval_checker/ast_eval/ast_checker.py`` (bfcl-eval,
Apache-2.0; see NOTICE), Python rules only. The rules, as BFCL applies them:

* **Types** are compared exactly (``type(value) is int``: a boolean is not an integer) after
  two conversions: an ``int`` is accepted for a ``float`` parameter (made a float), and a
  ``tuple`` for a ``tuple`` parameter (made a list: BFCL's possible answers are JSON, where
  tuples are lists). ``any`` expects a string. Arrays and tuples have their items checked one
  level deep against ``items.type`` (no int-for-float there); the check passes as soon as one
  accepted value is not a list, or all items fit the type of one accepted list.
* **Variables**: when the accepted values have another type than declared (BFCL writes a
  variable name as a string), a value of *their* type is accepted by type, and then compared
  as is, without the special rules below.
* **Strings** are compared after :func:`standardize`: spaces and ``,./-_*^`` removed, lower
  case, ``'`` read as ``"`` ("April 1, 2024" is "april12024").
* **Lists** are compared as wholes against each accepted list, their string items
  standardized (top level only). ``""`` among the accepted values also accepts ``[]``.
* **Dictionaries** are compared key by key against each accepted dictionary (each key's
  accepted values a list, strings standardized); a key missing from the value must have
  ``""`` among its accepted values; no other key is allowed.
* **Lists of dictionaries**: the same number of dictionaries as one accepted list, each
  compared as above, in order.
* Anything else must equal (``==``) one accepted value (so ``2.0`` matches ``2``).

Where BFCL's checker would raise on malformed possible answers (an accepted value of the wrong
shape), these functions skip that accepted value instead; where it would raise on a model's
value (a list item that is not a dictionary), they reject the value.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gent_bfcl.verdict import FailureKind, Verdict

__all__ = [
    "NESTED_TYPES",
    "PYTHON_TYPES",
    "TypeCheck",
    "check_dict",
    "check_list",
    "check_list_of_dicts",
    "check_string",
    "check_type",
    "standardize",
]

PYTHON_TYPES: Mapping[str, type] = {
    "string": str,
    "integer": int,
    "float": float,
    "boolean": bool,
    "array": list,
    "tuple": list,
    "dict": dict,
    "any": str,
}
"""The Python type BFCL expects for each declared type."""

NESTED_TYPES = ("array", "tuple")
"""Declared types whose items are type-checked too."""

_IGNORED = re.compile(r"[ \,\.\/\-\_\*\^]")


def standardize(text: str) -> str:
    """``text`` as BFCL compares strings: without spaces and ``,./-_*^``, in lower case,
    with ``'`` written as ``"``.
    """
    return _IGNORED.sub("", text).lower().replace("'", '"')


def _std(value: Any) -> Any:
    return standardize(value) if type(value) is str else value


def _elements(accepted: Any) -> list[Any] | None:
    """The items BFCL reads from an accepted value by index (a string's characters), or
    ``None`` where it would raise.
    """
    if isinstance(accepted, list | tuple | str):
        return list(accepted)
    return None


def _has_empty(options: Any) -> bool:
    """BFCL's ``"" in options`` (true for any string), ``False`` where it would raise."""
    if isinstance(options, str):
        return True
    if isinstance(options, list | tuple | dict):
        return "" in options
    return False


def _exactly(value: Any, kind: type) -> bool:
    """Whether ``value`` is of type ``kind`` exactly (a ``bool`` is not an ``int``)."""
    return type(value) is kind


def _answer_type(accepted: Sequence[Any]) -> type | None:
    """The type of the first accepted value that is not ``""`` (the optional marker)."""
    for answer in accepted:
        if answer != "":
            return type(answer)
    return None


@dataclass(frozen=True)
class TypeCheck:
    """The outcome of :func:`check_type`.

    Attributes:
        valid: Whether the value's type is accepted.
        is_variable: Whether the accepted values have another type than declared (BFCL's
            "variable" case: the value is then compared as is).
        message: Why not, when not valid.
    """

    valid: bool
    is_variable: bool = False
    message: str = ""


def check_type(
    param: str,
    value: Any,
    accepted: Sequence[Any],
    declared: str,
    expected: type,
    nested: type | None,
) -> TypeCheck:
    """Check the type of ``value`` for parameter ``param`` (BFCL's ``type_checker``).

    Args:
        param: The parameter's name (for messages).
        value: The value given (already converted for int-for-float and tuples).
        accepted: The accepted values of the parameter.
        declared: The declared BFCL type (for messages).
        expected: The Python type expected (:data:`PYTHON_TYPES`).
        nested: The Python type of the items, for arrays and tuples.
    """
    answer_type = _answer_type(accepted)
    is_variable = answer_type is not None and answer_type is not expected
    nested_failed = False
    if _exactly(value, expected):
        if nested is None:
            return TypeCheck(True, is_variable)
        for option in accepted:
            if type(option) is list and not all(
                check_type(param, item, option, nested.__name__, nested, None).valid
                for item in value
            ):
                continue
            return TypeCheck(True, is_variable)
        nested_failed = True
    if answer_type is not None and type(value) is answer_type and not nested_failed:
        return TypeCheck(True, True)
    if nested_failed:
        assert nested is not None
        return TypeCheck(
            False,
            message=f"parameter {param!r} must be {declared} of {nested.__name__} items, "
            f"got {value!r}",
        )
    return TypeCheck(
        False,
        message=f"parameter {param!r} must be of type {declared}, got "
        f"{type(value).__name__} {value!r}",
    )


def _wrong_value(param: str, value: Any, accepted: Sequence[Any], note: str = "") -> Verdict:
    return Verdict.fail(
        FailureKind.WRONG_VALUE,
        f"invalid value for parameter {param!r}: {value!r}; expected one of "
        f"{list(accepted)!r}{note}",
    )


def check_string(param: str, value: str, accepted: Sequence[Any]) -> Verdict:
    """A string value, compared after :func:`standardize` with the accepted strings."""
    options = [standardize(option) for option in accepted if type(option) is str]
    if standardize(value) in options:
        return Verdict.ok()
    return _wrong_value(param, value, accepted, " (compared without case, spaces, ,./-_*^)")


def check_list(param: str, value: list[Any], accepted: Sequence[Any]) -> Verdict:
    """A list value, compared whole with each accepted list (string items standardized)."""
    given = [_std(item) for item in value]
    for option in accepted:
        items = _elements(option)
        if items is not None and given == [_std(item) for item in items]:
            return Verdict.ok()
    return _wrong_value(param, value, accepted)


def check_dict(param: str, value: Mapping[Any, Any], accepted: Sequence[Any]) -> Verdict:
    """A dictionary value, compared key by key with each accepted dictionary."""
    failure = Verdict.fail(
        FailureKind.WRONG_VALUE, f"parameter {param!r}: {value!r} matches no accepted value"
    )
    for option in accepted:
        if option == "" or not isinstance(option, dict):
            continue
        failure = _dict_mismatch(param, value, option)
        if failure.valid:
            return failure
    return failure


def _dict_mismatch(param: str, value: Mapping[Any, Any], option: dict[Any, Any]) -> Verdict:
    for key, item in value.items():
        if key not in option:
            return Verdict.fail(
                FailureKind.WRONG_VALUE, f"parameter {param!r}: unexpected key {key!r}"
            )
        choices = _elements(option[key])
        if choices is None or _std(item) not in [_std(choice) for choice in choices]:
            return Verdict.fail(
                FailureKind.WRONG_VALUE,
                f"parameter {param!r}: invalid value {item!r} for key {key!r}; expected one "
                f"of {option[key]!r}",
            )
    for key, choices in option.items():
        if key not in value and not _has_empty(choices):
            return Verdict.fail(
                FailureKind.WRONG_VALUE, f"parameter {param!r}: missing key {key!r}"
            )
    return Verdict.ok()


def check_list_of_dicts(param: str, value: list[Any], accepted: Sequence[Any]) -> Verdict:
    """A list of dictionaries: as many as one accepted list, each matching in order."""
    failure = _wrong_value(param, value, accepted)
    for option in accepted:
        items = _elements(option)
        if items is None or len(items) != len(value):
            continue
        for given, expected in zip(value, items, strict=True):
            if not isinstance(given, dict):
                return Verdict.fail(
                    FailureKind.WRONG_TYPE,
                    f"parameter {param!r} must be a list of dict items, got {given!r}",
                )
            failure = check_dict(param, given, [expected])
            if not failure.valid:
                break
        else:
            return Verdict.ok()
    return failure
