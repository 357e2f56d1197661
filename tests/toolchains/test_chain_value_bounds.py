"""Values beyond gent's bounds are parse errors for the model, in both chains (issue 11, bugs 2,
3 and 5: where values enter)."""

from __future__ import annotations

import json

import pytest
from gent_json import JSONToolChain
from gent_yaml.chain import YAMLToolChain

from gent_core._serialize import MAX_DEPTH, MAX_INT_DIGITS
from gent_core.errors import InvalidJSONError, InvalidYAMLError, ParseError
from gent_core.toolchain import ToolChain

JSON = JSONToolChain()
YAML = YAMLToolChain()


def json_call(arguments: str) -> str:
    return '{"tool": "t", "args": {"x": ' + arguments + "}}"


def lists(levels: int) -> str:
    return "[" * levels + "]" * levels


def refused(chain: ToolChain, text: str) -> ParseError:
    with pytest.raises(ParseError) as caught:
        chain.parse(text)
    return caught.value


def test_json_integer_over_4300_digits_is_a_parse_error() -> None:
    error = refused(JSON, json_call("9" * (MAX_INT_DIGITS + 1)))
    assert isinstance(error, InvalidJSONError)
    assert f"more than {MAX_INT_DIGITS} digits" in error.model_message


def test_json_integer_of_4300_digits_is_accepted() -> None:
    [call] = JSON.parse(json_call("9" * MAX_INT_DIGITS))
    assert call.args["x"] == int("9" * MAX_INT_DIGITS)


def test_json_integer_over_the_limit_in_tolerant_syntax_is_a_parse_error() -> None:
    text = "{'tool': 't', 'args': {'x': " + "1" * 5000 + ", }}"  # not strict JSON
    assert f"more than {MAX_INT_DIGITS} digits" in refused(JSON, text).model_message


@pytest.mark.parametrize(
    ("digits", "prefix"), [("f" * 3600, "0x"), ("7" * 4800, "0o"), ("9" * 4301, "")]
)
def test_yaml_integer_beyond_the_digit_limit_is_a_parse_error(digits: str, prefix: str) -> None:
    error = refused(YAML, f"tool: t\nargs:\n  x: {prefix}{digits}\n")
    assert isinstance(error, InvalidYAMLError)
    assert f"more than {MAX_INT_DIGITS} decimal digits" in error.model_message
    assert len(error.model_message) < 1000  # the number is quoted briefly, not in full


@pytest.mark.parametrize("chain", [JSON, YAML], ids=["json", "yaml"])
def test_arguments_nested_deeper_than_the_bound_are_a_parse_error(chain: ToolChain) -> None:
    text = (  # "x" sits in the arguments object, so 100 lists nest 101 levels
        json_call(lists(MAX_DEPTH))
        if chain is JSON
        else f"tool: t\nargs: {{x: {lists(MAX_DEPTH)}}}\n"
    )
    error = refused(chain, text)
    assert f"nests more than {MAX_DEPTH} levels deep" in error.model_message


@pytest.mark.parametrize("chain", [JSON, YAML], ids=["json", "yaml"])
def test_arguments_at_the_depth_bound_are_accepted(chain: ToolChain) -> None:
    text = (
        json_call(lists(MAX_DEPTH - 1))
        if chain is JSON
        else f"tool: t\nargs: {{x: {lists(MAX_DEPTH - 1)}}}\n"
    )
    [call] = chain.parse(text)
    assert call.args["x"] == json.loads(lists(MAX_DEPTH - 1))


def test_json_nested_200_levels_is_a_parse_error_not_a_crash() -> None:
    for levels in (150, 200, 1000, 100_000):
        error = refused(JSON, json_call(lists(levels)))
        assert "deep" in error.model_message


@pytest.mark.parametrize(
    ("chain", "text", "shown"),
    [
        (JSON, json_call("NaN"), "NaN"),
        (JSON, json_call("Infinity"), "Infinity"),
        (JSON, json_call("-Infinity"), "-Infinity"),
        (JSON, json_call("1e999"), "Infinity"),
        (JSON, '{"tool": "t", "arguments": "{\\"x\\": NaN}"}', "NaN"),
        (YAML, "tool: t\nargs:\n  x: .nan\n", "NaN"),
        (YAML, "tool: t\nargs:\n  x: -.inf\n", "-Infinity"),
    ],
)
def test_nan_and_infinity_are_parse_errors(chain: ToolChain, text: str, shown: str) -> None:
    error = refused(chain, text)
    assert f"is {shown}, which is not a JSON number" in error.model_message
