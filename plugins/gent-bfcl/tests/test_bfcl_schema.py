"""BFCL's schema dialect as JSON Schema for gent tools, and the function name mapping."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from gent_bfcl import (
    BFCLSchemaError,
    from_gent_name,
    load_category,
    to_gent_name,
    to_json_schema,
    to_tool_spec,
)

from gent_core import BaseTool
from gent_core.tools import SchemaValidator

DATA = Path(__file__).with_name("data")


def _weather() -> dict[str, Any]:
    (task,) = [t for t in load_category("simple_python", DATA) if t.id == "simple_python_2"]
    return task.functions[0]


def test_the_dialect_becomes_json_schema() -> None:
    function = _weather()
    before = copy.deepcopy(function)
    schema = to_json_schema(function["parameters"])
    assert function == before  # the input is not changed
    properties = schema["properties"]
    assert schema["type"] == "object" and schema["required"] == ["city"]
    assert properties["days"] == {"type": "integer", "description": "Days of forecast."}
    assert properties["point"]["type"] == "array"
    assert properties["point"]["items"] == {"type": "number"}
    assert properties["options"]["type"] == "object"
    assert properties["options"]["properties"]["metric"]["type"] == "boolean"
    assert properties["tags"] == {
        "type": "array",
        "items": {"type": "string"},
        "description": "Tags.",
    }
    assert properties["anything"]["type"] == "string"
    assert (
        properties["city"]["description"]
        == function["parameters"]["properties"]["city"]["description"]
    )


def test_standard_keywords_are_kept_as_written() -> None:
    schema = to_json_schema(
        {
            "type": "dict",
            "properties": {
                "unit": {"type": "string", "enum": ["C", "F"], "default": "C"},
                "when": {"type": "string", "format": "date"},
                "n": {"type": "int", "maximum": 9},
                "extra": {"type": "dict", "additionalProperties": {"type": "float"}},
                "untyped": {"description": "no type"},
            },
        }
    )
    properties = schema["properties"]
    assert properties["unit"] == {"type": "string", "enum": ["C", "F"], "default": "C"}
    assert properties["when"] == {"type": "string", "format": "date"}
    assert properties["n"] == {"type": "integer", "maximum": 9}
    assert properties["extra"]["additionalProperties"] == {"type": "number"}
    assert properties["untyped"] == {"description": "no type", "type": "string"}


def test_gent_accepts_the_schema_and_the_reference_arguments() -> None:
    spec = to_tool_spec(_weather())
    arguments = {"city": "SF", "point": [1.5, 2.0], "options": {"metric": True}, "tags": ["a"]}
    assert SchemaValidator(spec.parameters).validate(arguments)[1] == []
    _, problems = SchemaValidator(spec.parameters).validate({"point": ["x"]})
    assert problems

    class Weather(BaseTool):
        name = spec.name
        description = spec.description
        parameters = spec.parameters

        async def run(self, working_directory: Path, **arguments: Any) -> str:
            return "sunny"

    assert Weather().validate_arguments({"city": "SF"}) == {"city": "SF"}


def test_unknown_types_and_shapes_are_errors_naming_the_place() -> None:
    with pytest.raises(BFCLSchemaError, match=r"options\.lang: unknown BFCL type 'text'"):
        to_json_schema(
            {
                "type": "dict",
                "properties": {
                    "options": {"type": "dict", "properties": {"lang": {"type": "text"}}}
                },
            }
        )
    with pytest.raises(BFCLSchemaError, match="must be a 'dict'"):
        to_json_schema({"type": "string"})
    with pytest.raises(BFCLSchemaError, match="function 'f': a: a schema must be an object, got 3"):
        to_tool_spec({"name": "f", "parameters": {"type": "dict", "properties": {"a": 3}}})
    with pytest.raises(BFCLSchemaError, match="needs a 'name'"):
        to_tool_spec({"parameters": {"type": "dict"}})


def test_the_tool_spec_names_the_function_both_ways() -> None:
    spec = to_tool_spec(load_category("simple_python", DATA)[0].functions[0])
    assert (spec.name, spec.bfcl_name) == ("math.factorial", "math.factorial")
    assert spec.description == "Calculate the factorial of a number."


@pytest.mark.parametrize("name", ["math.factorial", "a.b.c_d", "plain_name", "__dunder__.x"])
def test_names_are_kept_as_bfcl_writes_them(name: str) -> None:
    """gent tool names hold dots: a BFCL name is its own gent tool name, both ways."""
    assert to_gent_name(name) == name
    assert from_gent_name(name) == name


def test_names_that_are_no_tool_names_are_refused() -> None:
    with pytest.raises(ValueError, match="makes no gent tool name"):
        to_gent_name("1.start")
    with pytest.raises(ValueError, match="makes no gent tool name"):
        to_gent_name("a" * 65)
    with pytest.raises(ValueError, match="makes no gent tool name"):
        to_gent_name("math..factorial")
