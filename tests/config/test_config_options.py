"""validate_options: a component's options checked by its own options model."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import pytest
from pydantic import BaseModel, Field

from gent_core._config import ConfigError, validate_options
from gent_core._terminations.typed import JSONTermination

if TYPE_CHECKING:
    from gent_core.tools.base import Tool


class Widget:
    def __init__(
        self,
        size: int,
        *,
        colour: Literal["red", "blue"] = "red",
        ratio: float = 1.0,
        path: Path | None = None,
        label: str = "",
    ) -> None:
        self.size = size


class Declared:
    class Options(BaseModel):
        temperature: float = Field(0.7, ge=0, le=2)
        stop: list[str] = Field(default_factory=list)
        api_key: str | None = None

    def __init__(self, **options: Any) -> None:
        self.options = options


class Open:
    def __init__(self, level: int = 1, **extra: Any) -> None:
        self.extra = extra


class Chain:
    def __init__(self, tools: Sequence[Tool] = (), *, indent: int | None = None) -> None:
        self.tools = tools


class Opaque:
    def __init__(self, handle: Unresolvable = None) -> None:  # type: ignore[name-defined]  # noqa: F821
        self.handle = handle


def make(depth: int = 2, *args: Any, verbose: bool = False) -> dict[str, Any]:
    return {"depth": depth, "verbose": verbose}


def problems(error: ConfigError) -> list[str]:
    return [problem.render() for problem in error.problems]


def test_signature_options_are_coerced_and_only_given_ones_passed() -> None:
    assert validate_options(Widget, {"size": "3", "ratio": "0.5"}) == {"size": 3, "ratio": 0.5}
    assert validate_options(Widget, {"size": 1, "path": "out"}) == {"size": 1, "path": Path("out")}


def test_functions_are_factories_too() -> None:
    assert validate_options(make, {"depth": "5", "verbose": "yes"}) == {
        "depth": 5,
        "verbose": True,
    }


def test_unknown_option_lists_accepted_and_suggests() -> None:
    with pytest.raises(ConfigError) as caught:
        validate_options(Widget, {"size": 1, "color": "red"})
    assert problems(caught.value) == [
        "key 'color': unknown option 'color' (did you mean 'colour'?); accepted options: "
        "size, colour, ratio, path, label"
    ]


def test_every_bad_option_is_reported() -> None:
    with pytest.raises(ConfigError) as caught:
        validate_options(Widget, {"colour": "green", "ratio": "wide", "extra": 1})
    assert problems(caught.value) == [
        "key 'extra': unknown option 'extra'; accepted options: size, colour, ratio, path, label",
        "key 'size': missing required option 'size' (expected an integer)",
        "key 'colour': expected one of 'red', 'blue', got 'green'",
        "key 'ratio': expected a number, got 'wide'",
    ]


def test_declared_options_model_validates_and_passes_every_field() -> None:
    assert validate_options(Declared, {"temperature": "1.5"}) == {
        "temperature": 1.5,
        "stop": [],
        "api_key": None,
    }
    with pytest.raises(ConfigError) as caught:
        validate_options(Declared, {"temperature": 3, "seed": 3})
    assert problems(caught.value) == [
        "key 'seed': unknown option 'seed'; accepted options: temperature, stop, api_key",
        "key 'temperature': expected a number >= 0 and <= 2, got 3",
    ]


def test_secret_options_are_never_shown() -> None:
    with pytest.raises(ConfigError) as caught:
        validate_options(Declared, {"api_key": ["sk-do-not-show"]})
    assert problems(caught.value) == [
        "key 'api_key': expected a string or null, got (secret value)"
    ]
    assert "sk-do-not-show" not in str(caught.value)


def test_var_keyword_factories_accept_any_extra_option() -> None:
    assert validate_options(Open, {"level": "2", "anything": [1]}) == {
        "level": 2,
        "anything": [1],
    }
    with pytest.raises(ConfigError, match="expected an integer, got 'high'"):
        validate_options(Open, {"level": "high"})


def test_excluded_parameter_is_not_an_option() -> None:
    assert validate_options(Chain, {"indent": "2"}, exclude=("tools",)) == {"indent": 2}
    with pytest.raises(ConfigError) as caught:
        validate_options(Chain, {"tools": []}, exclude=("tools",))
    assert problems(caught.value) == ["key 'tools': option 'tools' is set by gent; remove it"]


def test_unresolvable_annotation_accepts_any_value() -> None:
    assert validate_options(Opaque, {"handle": object}) == {"handle": object}
    with pytest.raises(ConfigError, match="unknown option 'handel'"):
        validate_options(Opaque, {"handel": 1})


def test_option_names_that_shadow_pydantic_attributes() -> None:
    def factory(schema: str = "", model_config: int = 0, json: bool = False) -> None:
        return None

    assert validate_options(factory, {"schema": "x", "model_config": "2", "json": "true"}) == {
        "schema": "x",
        "model_config": 2,
        "json": True,
    }


def test_core_json_termination_options() -> None:
    assert validate_options(JSONTermination, {"schema": "pkg.mod:Model"}) == {
        "schema": "pkg.mod:Model"
    }
    with pytest.raises(ConfigError) as caught:
        validate_options(JSONTermination, {"shema": "pkg.mod:Model"})
    assert problems(caught.value) == [
        "key 'shema': unknown option 'shema' (did you mean 'schema'?); accepted options: "
        "schema, section_name, guidance, example",
        "key 'schema': missing required option 'schema'",
    ]


def test_builtin_without_signature_passes_options_through() -> None:
    assert validate_options(dict, {"a": 1}) == {"a": 1}
