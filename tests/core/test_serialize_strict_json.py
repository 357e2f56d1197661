"""The value bounds and the one JSON writer (issue 11, bugs 2, 3 and 5: serialization layer)."""

from __future__ import annotations

import dataclasses
import math
import sys
from typing import Any

import pytest

from gent_core._serialize import (
    MAX_DEPTH,
    MAX_INT_DIGITS,
    OUTPUT_MAX_DEPTH,
    ValueBoundsError,
    check_value,
    to_json_data,
    write_json,
)
from tests.strict_json import strict_loads


def nested(levels: int) -> list[Any]:
    """``levels`` lists, one inside the other."""
    value: list[Any] = []
    for _ in range(levels - 1):
        value = [value]
    return value


def huge_int(digits: int) -> int:
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return int("9" * digits)
    finally:
        sys.set_int_max_str_digits(limit)


def test_write_json_writes_nan_and_infinity_as_strings() -> None:
    text = write_json({"a": math.nan, "b": math.inf, "c": -math.inf, "d": 1.5})
    assert strict_loads(text) == {"a": "NaN", "b": "Infinity", "c": "-Infinity", "d": 1.5}


def test_write_json_writes_an_integer_too_large_for_text_as_a_placeholder() -> None:
    data = strict_loads(write_json({"n": huge_int(MAX_INT_DIGITS + 1), "m": -huge_int(5000)}))
    assert data["n"].startswith("<integer of about 43")
    assert data["m"].startswith("<integer of about 500")


def test_write_json_keeps_integers_up_to_the_digit_limit() -> None:
    largest = huge_int(MAX_INT_DIGITS)
    assert strict_loads(write_json([largest])) == [largest]


def test_write_json_never_raises_on_deep_or_cyclic_data() -> None:
    cyclic: list[Any] = []
    cyclic.append(cyclic)
    for value in (nested(5000), cyclic, {"a": nested(OUTPUT_MAX_DEPTH + 1)}):
        data = strict_loads(write_json(value))
        assert data is not None
    text = write_json(nested(5000))
    assert f"<nested deeper than {OUTPUT_MAX_DEPTH} levels>" in text


def test_write_json_keeps_values_of_the_maximum_depth_inside_a_record() -> None:
    record = {"steps": [{"calls": [{"args": {"x": nested(MAX_DEPTH - 1)}}]}]}
    assert strict_loads(write_json(record)) == record


def test_write_json_escapes_what_a_terminal_or_utf8_cannot_take() -> None:
    text = write_json({"s": "ok \x1b[2J \x9b \x7f \u202e \ud800 é"})
    assert "\x1b" not in text and "\x9b" not in text and "\u202e" not in text
    text.encode("utf-8")  # no lone surrogate left raw
    assert strict_loads(text) == {"s": "ok \x1b[2J \x9b \x7f \u202e \ud800 é"}


def test_write_json_converts_objects_and_odd_keys() -> None:
    @dataclasses.dataclass
    class Point:
        x: float

    class Broken:
        def __str__(self) -> str:
            raise RuntimeError("no")

    data = strict_loads(
        write_json({1: Point(math.nan), None: {3, 1}, math.inf: b"\xff", "o": Broken()})
    )
    assert data["1"] == {"x": "NaN"}
    assert data["null"] == [1, 3]
    assert data["Infinity"] == "/w=="
    assert data["o"] == "<Broken that cannot be written: RuntimeError>"


def test_write_json_redacts_every_string_value_but_never_a_key() -> None:
    text = write_json(
        {"sk-123": ["key sk-123 here", {"sk-123": "sk-123"}]},
        redact=lambda s: s.replace("sk-123", "***"),
    )
    assert strict_loads(text) == {"sk-123": ["key *** here", {"sk-123": "***"}]}


def test_to_json_data_never_raises_on_nan_inside_a_pydantic_model() -> None:
    from pydantic import BaseModel

    class Answer(BaseModel):
        value: float

    assert to_json_data(Answer(value=math.nan)) == {"value": "NaN"}


def test_check_value_accepts_the_bounds_exactly() -> None:
    check_value({"a": nested(MAX_DEPTH - 1)}, name="args")
    check_value([huge_int(MAX_INT_DIGITS)])


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"a": nested(MAX_DEPTH)}, "the value at args.a[0][0] nests more than 100 levels deep"),
        ({"x": [1, {"y": math.nan}]}, "args.x[1].y is NaN, which is not a JSON number"),
        ({"x": -math.inf}, "args.x is -Infinity, which is not a JSON number"),
        ({"n": huge_int(MAX_INT_DIGITS + 1)}, "args.n is an integer of about 43"),
    ],
)
def test_check_value_names_the_offending_place(value: Any, message: str) -> None:
    with pytest.raises(ValueBoundsError) as caught:
        check_value(value, name="args")
    assert caught.value.problem.startswith(message)


def test_check_value_may_allow_non_finite_numbers_for_tool_outputs() -> None:
    check_value({"mean": math.nan}, allow_non_finite=True)
    with pytest.raises(ValueBoundsError):
        check_value(nested(MAX_DEPTH + 1), allow_non_finite=True)


def test_check_value_walks_into_objects_when_converting() -> None:
    from pydantic import BaseModel

    class Answer(BaseModel):
        value: float

    check_value(Answer(value=math.nan))  # a leaf without convert
    with pytest.raises(ValueBoundsError, match=r"answer\.value is NaN"):
        check_value(Answer(value=math.nan), convert=True, name="answer")
