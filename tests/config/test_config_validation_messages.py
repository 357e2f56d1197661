"""Config problems found by pydantic read like every other config problem: the key, what was
wrong and what is accepted; never pydantic's own text ("For further information visit
https://errors.pydantic.dev") or a lazily-validated surprise at run time."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import BaseModel

from gent_core import hookimpl
from gent_core._config import ConfigError, build_components, parse_config
from tests.config.conftest import FakeFormat

PYDANTIC_TEXT = ("errors.pydantic.dev", "For further information", "ValidatorIterator")


def build_error(fakes: SimpleNamespace, text: str) -> str:
    loaded = parse_config(text, source="agent.yaml", environ={})
    with pytest.raises(ConfigError) as caught:
        build_components(loaded, fakes.sandbox.registry())
    message = str(caught.value)
    for leak in PYDANTIC_TEXT:
        assert leak not in message
    return message


def test_scripted_outputs_that_are_not_texts_name_each_item(fakes: SimpleNamespace) -> None:
    message = build_error(
        fakes, "model: {name: scripted, outputs: [1, 2]}\nformat: fake\ntoolchain: calls\n"
    )
    assert message.splitlines()[1:] == [
        "agent.yaml, line 1, key 'model.outputs.0', plugin 'core': expected a string or a "
        "list, got 1",
        "agent.yaml, line 1, key 'model.outputs.1', plugin 'core': expected a string or a "
        "list, got 2",
    ]


def test_a_string_where_a_list_is_expected_is_refused_not_split(fakes: SimpleNamespace) -> None:
    message = build_error(
        fakes, "model: {name: scripted, outputs: abc}\nformat: fake\ntoolchain: calls\n"
    )
    assert message == (
        "agent.yaml, line 1, key 'model.outputs', plugin 'core': expected a list, got 'abc'"
    )


class Settings(BaseModel):
    port: int


class Fussy(FakeFormat):
    """A format whose constructor validates with pydantic itself (and fails)."""

    def __init__(self, *, port: str = "eighty") -> None:
        Settings.model_validate({"port": port})


class FussyPlugin:
    @hookimpl
    def gent_register_formats(self) -> Mapping[str, Callable[..., Any]]:
        return {"fussy": Fussy}


def test_a_constructor_s_own_validation_error_is_worded_without_pydantic_links(
    fakes: SimpleNamespace,
) -> None:
    fakes.sandbox.register(FussyPlugin(), "fussy")
    message = build_error(fakes, "model: fake\nformat: fussy\ntoolchain: calls\n")
    assert message == (
        "agent.yaml, line 2, key 'format', plugin 'fussy': format 'fussy' could not be "
        "created: ValidationError: 1 problem validating Settings: port: Input should be a "
        "valid integer, unable to parse string as an integer"
    )


LOOP = """\
model: fake
format: fake
toolchain: calls
termination:
  name: json
  schema:
    $defs:
      A: {$ref: "#/$defs/B"}
      B: {$ref: "#/$defs/A"}
    $ref: "#/$defs/A"
"""


def test_an_answer_schema_with_a_ref_loop_is_refused_at_load(fakes: SimpleNamespace) -> None:
    message = build_error(fakes, LOOP)
    assert message.startswith(
        "agent.yaml, line 8, key 'termination.schema.$defs.A', plugin 'core': termination "
        "'json': invalid answer schema: the schema's $ref pointers loop ('#/$defs/A' -> "
        "'#/$defs/B' -> '#/$defs/A' leads back to where it started"
    )


def test_a_ref_loop_through_any_of_is_refused_too(fakes: SimpleNamespace) -> None:
    text = LOOP.split("  schema:")[0] + (
        "  schema:\n    type: object\n    properties:\n"
        "      a: {anyOf: [{type: string}, {$ref: '#/properties/a'}]}\n"
    )
    message = build_error(fakes, text)
    assert "key 'termination.schema.properties.a'" in message
    assert "the schema's $ref pointers loop ('#/properties/a' leads back" in message
