"""The bounded reader of outside input (:mod:`gent_core._bounded`): one implementation of
gent's bounds for JSON, YAML and file sizes."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from gent_core._bounded import (
    CONFIG_FILE,
    MAX_YAML_VALUES,
    TRANSCRIPT_FILE,
    read_file,
    read_json,
    read_stream,
    read_yaml,
    size_limit,
)
from gent_core._terminations.typed import JSONTermination
from gent_core.errors import (
    GentError,
    InputBoundsError,
    InputError,
    InputSyntaxError,
    InputTooLargeError,
    TerminationError,
)
from gent_core.messages import MessageToolCall


def nested(levels: int) -> str:
    return "[" * levels + "]" * levels


def test_the_errors_are_gent_errors() -> None:
    for kind in (InputSyntaxError, InputBoundsError, InputTooLargeError):
        assert issubclass(kind, InputError) and issubclass(kind, GentError)


@pytest.mark.parametrize("levels", [101, 150, 999, 5000])
def test_json_nested_past_the_bound_is_refused_however_deep(levels: int) -> None:
    with pytest.raises(InputBoundsError, match="nests more than 100 levels deep"):
        read_json(nested(levels), source="x")


@pytest.mark.parametrize("levels", [600, 3000])
def test_very_deep_json_is_refused_the_same_way_on_every_python(levels: int) -> None:
    # json.loads itself goes about 1,000 levels deep before 3.12 and thousands after:
    # the message must not depend on which
    with pytest.raises(InputBoundsError) as caught:
        read_json('{"a": ' + nested(levels) + "}", source="ARGS")
    assert str(caught.value).startswith("ARGS nests more than 100 levels deep")


@pytest.mark.parametrize(
    "text",
    [
        '["' + "[" * 3000 + '"]',
        '{"k": "' + "{" * 3000 + '"}',
        '["\\"' + "[" * 3000 + '"]',
        '["\\\\", "' + "[" * 3000 + '"]',
    ],
)
def test_brackets_inside_strings_do_not_count_as_nesting(text: str) -> None:
    assert len(str(read_json(text, source="x"))) > 3000


def test_json_deeper_than_the_bound_but_shallow_is_named_by_its_path() -> None:
    with pytest.raises(InputBoundsError) as caught:
        read_json('{"a": ' + nested(150) + "}", source="ARGS")
    assert str(caught.value).startswith("the value at a")


def test_json_nested_to_the_bound_is_read() -> None:
    value = read_json(nested(100), source="x")
    for _ in range(99):
        (value,) = value
    assert value == []


@pytest.mark.parametrize(
    ("text", "kind", "problem"),
    [
        ("NaN", InputSyntaxError, "not valid JSON: NaN is not a JSON value"),
        ('{"a": -Infinity}', InputSyntaxError, "not valid JSON: -Infinity is not a JSON value"),
        ("[1e400]", InputBoundsError, "the number 1e400 is too large to be finite"),
        ("-" + "1" * 4301, InputBoundsError, "an integer has 4,301 digits"),
        ('{"a": 1', InputSyntaxError, "not valid JSON: Expecting ',' delimiter at column 8"),
        ('{\n"a" 1}', InputSyntaxError, "not valid JSON: Expecting ':' delimiter at line 2"),
    ],
)
def test_json_beyond_the_bounds_or_not_json(
    text: str, kind: type[InputError], problem: str
) -> None:
    with pytest.raises(kind) as caught:
        read_json(text, source="ARGS")
    assert caught.value.problem.startswith(problem)
    assert str(caught.value).startswith("ARGS")
    assert "set_int_max_str_digits" not in str(caught.value)


def test_json_integers_of_4300_digits_are_read() -> None:
    assert read_json("-" + "1" * 4300, source="x") == -int("1" * 4300)


def test_yaml_aliases_that_reach_past_the_depth_bound_are_refused() -> None:
    # 60 levels, then an alias to another 60-level value: 120 levels in all
    text = "a: &deep " + nested(60) + "\nb: " + "[" * 60 + "*deep" + "]" * 60 + "\n"
    with pytest.raises(InputBoundsError, match="nests more than 100 levels deep"):
        read_yaml(text, source="doc")
    assert read_yaml("a: &x [1]\nb: [*x, *x]\n", source="doc") == {"a": [1], "b": [[1], [1]]}


def test_yaml_alias_bomb_is_refused_after_one_read() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 8)]
    with pytest.raises(InputBoundsError) as caught:
        read_yaml("\n".join(lines), source="doc")
    assert f"more than {MAX_YAML_VALUES:,} values" in str(caught.value)


def test_yaml_problems_say_where() -> None:
    with pytest.raises(InputBoundsError) as caught:
        read_yaml("a:\n  b: [1, 2, .inf]\n", source="doc")
    assert str(caught.value).startswith("doc, line 2 at a.b[2]: .inf is not a finite number")
    assert (caught.value.line, caught.value.path) == (2, ("a", "b", 2))
    with pytest.raises(InputSyntaxError, match=r"doc is not valid YAML \(line 1, column 6\)"):
        read_yaml("[a, b", source="doc")
    with pytest.raises(InputSyntaxError, match="doc is not valid YAML: unacceptable character"):
        read_yaml("a: \x00", source="doc")


@pytest.mark.parametrize(
    ("value", "expected"),
    [("", 2 * 1024 * 1024), ("5000", 5000), ("3K", 3072), ("2 MiB", 2 << 20), ("1g", 1 << 30)],
)
def test_size_limits_read_their_variable(value: str, expected: int) -> None:
    assert size_limit(CONFIG_FILE, {"GENT_MAX_CONFIG_SIZE": value}) == expected


@pytest.mark.parametrize("value", ["0", "-1", "lots", "1.5M", "3T"])
def test_a_size_variable_that_is_not_a_size_is_an_error(value: str) -> None:
    with pytest.raises(InputError, match=r"GENT_MAX_CONFIG_SIZE=.* is not a size"):
        size_limit(CONFIG_FILE, {"GENT_MAX_CONFIG_SIZE": value})


def test_a_device_with_no_size_is_read_only_up_to_the_limit() -> None:
    # /dev/zero says it is empty and never ends: only the limit stops the read
    with pytest.raises(InputTooLargeError, match="holds more than 1,024 bytes"):
        read_file("/dev/zero", TRANSCRIPT_FILE, environ={"GENT_MAX_TRANSCRIPT_SIZE": "1K"})


def test_a_file_and_a_stream_at_the_limit_are_read(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x" * 1024)
    environ = {"GENT_MAX_CONFIG_SIZE": "1K"}
    assert read_file(path, CONFIG_FILE, environ=environ) == b"x" * 1024
    assert read_stream(io.BytesIO(b"y" * 1024), "stdin", CONFIG_FILE, environ=environ)
    with pytest.raises(InputTooLargeError):
        read_stream(io.BytesIO(b"y" * 1025), "stdin", CONFIG_FILE, environ=environ)


def test_native_tool_call_arguments_are_read_within_the_bounds() -> None:
    call = MessageToolCall("c1", "f", '{"x": ' + nested(150) + "}")
    with pytest.raises(ValueError, match="the arguments of tool call 'c1' \\(f\\): the value at"):
        call.parsed_arguments()
    call = MessageToolCall("c2", "f", '{"x": NaN}')
    with pytest.raises(ValueError, match="tool call 'c2' \\(f\\) are not valid JSON: NaN"):
        call.parsed_arguments()


def test_an_inline_schema_answer_nested_too_deeply_is_an_answer_problem() -> None:
    termination = JSONTermination({"type": "object"})
    with pytest.raises(TerminationError) as caught:
        termination.parse('{"a": ' + nested(3000) + "}")
    assert "nests more than 100 levels deep" in caught.value.model_message


@pytest.mark.parametrize(("python_limit", "accepted"), [(0, 4300), (10_000, 4300), (1000, 1000)])
def test_integer_digits_are_bounded_whatever_python_s_own_limit(
    python_limit: int, accepted: int
) -> None:
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(python_limit)
    try:
        assert read_json("7" * accepted, source="x") == int("7" * accepted)
        with pytest.raises(InputBoundsError) as caught:
            read_json(f"[{'7' * (accepted + 1)}]", source="x")
    finally:
        sys.set_int_max_str_digits(before)
    assert f"gent accepts integers of at most {accepted:,} digits" in str(caught.value)
    assert "set_int_max_str_digits" not in str(caught.value)
