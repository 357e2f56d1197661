"""A config file's values obey gent's bounds (nesting, integer digits, finite numbers): each
problem is a config error naming the file, line and key, never a traceback or Python's own
advice about ``sys.set_int_max_str_digits()``."""

from __future__ import annotations

from pathlib import Path

import pytest

from gent_core._config import ConfigError, load_config

HEAD = "model: {name: scripted, outputs: []}\n"


def error_of(tmp_path: Path, body: str, environ: dict[str, str] | None = None) -> str:
    path = tmp_path / "agent.yaml"
    path.write_text(HEAD + body)
    with pytest.raises(ConfigError) as caught:
        load_config(path, environ=environ or {})
    message = str(caught.value)
    assert "set_int_max_str_digits" not in message
    return message.replace(str(path), "agent.yaml")


def test_deep_nesting_names_the_line_and_key(tmp_path: Path) -> None:
    message = error_of(tmp_path, "prompt:\n  append: " + "[" * 150 + "]" * 150 + "\n")
    assert message.startswith("agent.yaml, line 3, key 'prompt.append.0': the value at ")
    assert "nests more than 100 levels deep; gent accepts values nested at most 100" in message


def test_nesting_deep_enough_for_python_s_recursion_limit_is_the_same_error(
    tmp_path: Path,
) -> None:
    message = error_of(tmp_path, "prompt:\n  append: " + "[" * 2000 + "]" * 2000 + "\n")
    assert "nests more than 100 levels deep" in message
    assert "Recursion" not in message


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "max_steps: " + "9" * 5000 + "\n",
            "agent.yaml, line 2, key 'max_steps': an integer has 5,000 digits; gent accepts "
            "integers of at most 4,300 digits",
        ),
        (
            "limits: {max_tool_output_chars: .inf}\n",
            "agent.yaml, line 2, key 'limits.max_tool_output_chars': .inf is not a finite number",
        ),
    ],
)
def test_numbers_beyond_the_bounds_name_the_line_and_key(
    tmp_path: Path, body: str, expected: str
) -> None:
    assert error_of(tmp_path, body).startswith(expected)


def test_a_variable_expanding_to_a_huge_integer_is_refused(tmp_path: Path) -> None:
    message = error_of(tmp_path, "max_steps: ${STEPS}\n", {"STEPS": "9" * 5000})
    assert message.startswith("agent.yaml, line 2, key 'max_steps': an integer has 5,000 digits")


def test_a_timestamp_that_is_no_date_is_a_config_error_not_a_traceback(tmp_path: Path) -> None:
    # YAML reads 2024-13-45 as a timestamp; building it used to raise a bare ValueError
    message = error_of(tmp_path, "prompt: {append: 2024-13-45}\n")
    assert message.startswith(
        "agent.yaml, line 2, key 'prompt.append': 2024-13-45 is not a valid timestamp (month "
        "must be in 1..12); quote it to make it a string"
    )
