"""The one schema path walker (``gent_core._schema_walk``) that both the configuration
errors and the tool argument errors use to tell keys from union member tags.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from gent_core._config.problems import problems_from_validation_error
from gent_core._schema_walk import expand_schemas, walk_location
from gent_core.errors import InvalidToolArgumentsError
from gent_core.tools import tool


def test_union_tags_are_dropped_and_keys_and_indexes_kept() -> None:
    schema = {
        "type": "object",
        "properties": {"value": {"anyOf": [{"type": "integer"}, {"$ref": "#/$defs/Item"}]}},
        "$defs": {"Item": {"type": "array", "items": {"type": "string"}}},
    }
    parts, schemas = walk_location(("value", "list[str]", 2), schema)
    assert parts == ["value", 2]
    assert schemas == [{"type": "string"}]


def test_prefix_items_are_walked_by_index() -> None:
    schema = {
        "type": "object",
        "properties": {
            "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]}
        },
    }
    assert walk_location(("pair", 1), schema) == (["pair", 1], [{"type": "string"}])


def test_keys_declared_next_to_a_union_are_keys() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
    }
    assert walk_location(("a",), schema) == (["a"], [{"type": "integer"}])


def test_an_open_mapping_keeps_any_key_but_not_a_union_tag() -> None:
    open_mapping = {"type": "object", "additionalProperties": True}
    assert walk_location(("anything",), open_mapping)[0] == ["anything"]
    union = {"anyOf": [open_mapping, {"type": "integer"}]}
    assert walk_location(("dict[str,any]",), union)[0] == []


def test_expansion_is_bounded_on_a_cyclic_schema() -> None:
    root = {"$defs": {"A": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]}}}
    expanded = expand_schemas([{"$ref": "#/$defs/A"}], root)
    assert {"type": "null"} in expanded and len(expanded) <= 256
    assert expand_schemas([{"$ref": "#/$defs/Missing"}], root) == []
    assert expand_schemas([{"anyOf": [{"type": "null"}]}], root, leaves_only=True) == [
        {"type": "null"}
    ]


def test_a_tool_argument_in_a_union_with_an_open_mapping_is_named_without_the_tag() -> None:
    @tool
    def store(data: dict[str, Any] | int) -> None:
        """Store data."""

    with_error: InvalidToolArgumentsError | None = None
    try:
        store.validate_arguments({"data": "x"})
    except InvalidToolArgumentsError as error:
        with_error = error
    assert with_error is not None
    assert "Argument 'data'" in with_error.model_message
    assert "dict[" not in with_error.model_message


def test_a_config_key_next_to_a_union_is_reported_with_its_expected_type() -> None:
    class Settings(BaseModel):
        model_config = ConfigDict(extra="forbid")
        limit: int

    schema = Settings.model_json_schema()
    schema["anyOf"] = [{"required": ["limit"]}]
    try:
        Settings.model_validate({"limit": "many"})
    except ValidationError as error:
        problems = problems_from_validation_error(error, schema)
    assert problems == [(("limit",), "expected an integer, got 'many'")]
