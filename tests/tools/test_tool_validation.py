"""Validation and coercion of function-tool arguments, and model-readable errors."""

from __future__ import annotations

from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field

from gent_core.errors import InvalidToolArgumentsError
from gent_core.tools import tool


class Point(BaseModel):
    x: int
    y: int = 0


@tool
def repeat(text: str, count: int = 1, loud: bool = False, ratio: float = 1.0) -> str:
    """Repeat a text."""
    return text * count


def _error(function_tool: object, arguments: object) -> InvalidToolArgumentsError:
    with pytest.raises(InvalidToolArgumentsError) as caught:
        function_tool.validate_arguments(arguments)  # type: ignore[attr-defined]
    return caught.value


def test_valid_arguments_get_defaults_filled_in() -> None:
    assert repeat.validate_arguments({"text": "ab"}) == {
        "text": "ab",
        "count": 1,
        "loud": False,
        "ratio": 1.0,
    }


def test_strings_are_coerced_to_the_annotated_types() -> None:
    validated = repeat.validate_arguments(
        {"text": "ab", "count": "7", "loud": "true", "ratio": "2.5"}
    )
    assert validated == {"text": "ab", "count": 7, "loud": True, "ratio": 2.5}
    assert type(validated["count"]) is int


def test_numbers_are_coerced_to_strings_and_whole_floats_to_ints() -> None:
    validated = repeat.validate_arguments({"text": 12345, "count": 3.0})
    assert validated["text"] == "12345"
    assert validated["count"] == 3
    assert type(validated["count"]) is int


def test_non_integer_string_names_the_argument_and_the_expected_type() -> None:
    error = _error(repeat, {"text": "ab", "count": "seven"})
    assert "Argument 'count': expected an integer, got 'seven'" in error.model_message
    assert error.location.tool == "repeat"
    assert "Call it as: repeat(text: string, count: integer = 1" in error.model_message


def test_fractional_number_for_an_integer_is_refused() -> None:
    error = _error(repeat, {"text": "ab", "count": 2.5})
    assert "Argument 'count': expected an integer, got 2.5" in error.model_message


def test_unknown_arguments_list_the_accepted_ones() -> None:
    error = _error(repeat, {"text": "ab", "colour": "red", "size": 2})
    assert (
        "Unknown arguments 'colour', 'size'. Accepted arguments: text, count, loud, ratio."
        in error.model_message
    )


def test_missing_required_arguments_are_named() -> None:
    @tool
    def pair(left: str, right: str, sep: str = "") -> str:
        return left + sep + right

    error = _error(pair, {"sep": "-"})
    assert "Missing required arguments 'left', 'right'." in error.model_message
    error = _error(pair, {"left": "a"})
    assert "Missing required argument 'right'." in error.model_message


def test_several_problems_are_listed_one_per_line() -> None:
    error = _error(repeat, {"count": "x", "loud": "maybe", "extra": 1})
    lines = error.model_message.splitlines()
    assert lines[0] == "Invalid arguments for tool 'repeat':"
    assert "- Unknown argument 'extra'. Accepted arguments: text, count, loud, ratio." in lines
    assert "- Missing required argument 'text'." in lines
    assert "- Argument 'count': expected an integer, got 'x'." in lines
    assert "- Argument 'loud': expected a boolean (true or false), got 'maybe'." in lines


def test_literal_error_lists_the_choices() -> None:
    @tool
    def convert(unit: Literal["celsius", "fahrenheit"]) -> str:
        return unit

    error = _error(convert, {"unit": "kelvin"})
    assert (
        "Argument 'unit': expected 'celsius' or 'fahrenheit', got 'kelvin'" in error.model_message
    )


def test_nested_model_errors_carry_the_path() -> None:
    @tool
    def move(point: Point, path: list[Point] | None = None) -> None:
        return None

    error = _error(move, {"point": {"x": "left"}, "path": [{"x": 1}, {"y": 2}]})
    assert "Argument 'point.x': expected an integer, got 'left'" in error.model_message
    assert "Argument 'path[1]': missing required key 'x'" in error.model_message
    error = _error(move, {"point": 3})
    assert "Argument 'point': expected an object, got 3" in error.model_message


def test_nested_model_is_validated_into_an_instance() -> None:
    @tool
    def move(point: Point) -> int:
        return point.x

    validated = move.validate_arguments({"point": {"x": "4"}})
    assert validated["point"] == Point(x=4, y=0)


def test_union_errors_are_merged_into_one_sentence() -> None:
    @tool
    def f(value: int | list[int]) -> None:
        return None

    error = _error(f, {"value": {"a": 1}})
    assert "Argument 'value': expected an integer or a list, got an object" in error.model_message
    assert "int" not in error.model_message.split("Call it as")[0].replace("integer", "")


def test_constraint_errors_are_worded_for_the_model() -> None:
    @tool
    def f(count: Annotated[int, Field(ge=1)], name: Annotated[str, Field(max_length=3)]) -> None:
        return None

    error = _error(f, {"count": 0, "name": "abcdef"})
    assert (
        "Argument 'count': expected a value greater than or equal to 1, got 0"
        in error.model_message
    )
    assert (
        "Argument 'name': string should have at most 3 characters, got 'abcdef'"
        in error.model_message
    )


def test_arguments_that_are_not_a_mapping() -> None:
    error = _error(repeat, ["ab", 2])
    assert "Arguments must be an object mapping argument names to values, got a list" in (
        error.model_message
    )


def test_programmer_message_names_tool_and_problem() -> None:
    error = _error(repeat, {"text": "ab", "count": "seven"})
    assert "invalid arguments for tool 'repeat'" in str(error)
    assert "tool 'repeat'" in str(error)


def test_validation_builds_no_model_per_call(monkeypatch: pytest.MonkeyPatch) -> None:
    @tool
    def f(a: int) -> int:
        return a

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a model was built during validation")

    monkeypatch.setattr("gent_core.tools._signature.create_model", refuse)
    assert f.validate_arguments({"a": "2"}) == {"a": 2}
    with pytest.raises(InvalidToolArgumentsError):
        f.validate_arguments({"a": "x"})
