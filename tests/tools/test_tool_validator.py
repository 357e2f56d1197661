"""SchemaValidator: the JSON Schema subset used by hand-written tool schemas."""

from __future__ import annotations

from typing import Any

import pytest

from gent_core.tools import SchemaValidator
from gent_core.tools._validator import SchemaDefinitionError


def _validate(schema: dict[str, Any], value: Any) -> tuple[Any, list[str]]:
    result, problems = SchemaValidator(schema).validate(value)
    return result, [problem.render() for problem in problems]


@pytest.mark.parametrize(
    ("kind", "given", "expected"),
    [
        ("integer", "7", 7),
        ("integer", " -12 ", -12),
        ("integer", 7.0, 7),
        ("integer", "7.0", 7),
        ("number", "2.5", 2.5),
        ("number", "3", 3),
        ("number", "1e3", 1000.0),
        ("boolean", "true", True),
        ("boolean", "No", False),
        ("boolean", 1, True),
        ("string", 12, "12"),
        ("string", 2.5, "2.5"),
        ("array", ("a", "b"), ["a", "b"]),
    ],
)
def test_common_coercions(kind: str, given: Any, expected: Any) -> None:
    result, problems = _validate(
        {"type": "object", "properties": {"v": {"type": kind}}}, {"v": given}
    )
    assert problems == []
    assert result["v"] == expected
    assert type(result["v"]) is type(expected)


@pytest.mark.parametrize(
    ("kind", "given", "message"),
    [
        ("integer", "seven", "Argument 'v': expected an integer, got 'seven'."),
        ("integer", 2.5, "Argument 'v': expected an integer, got 2.5."),
        ("integer", True, "Argument 'v': expected an integer, got true."),
        ("number", "nan", "Argument 'v': expected a number, got 'nan'."),
        ("number", "1e999", "Argument 'v': expected a number, got '1e999'."),
        ("boolean", "maybe", "Argument 'v': expected a boolean (true or false), got 'maybe'."),
        ("string", None, "Argument 'v': expected a string, got null."),
        ("string", [1], "Argument 'v': expected a string, got a list."),
        ("object", "x", "Argument 'v': expected an object, got 'x'."),
        ("null", 0, "Argument 'v': expected null, got 0."),
    ],
)
def test_type_errors(kind: str, given: Any, message: str) -> None:
    _, problems = _validate({"type": "object", "properties": {"v": {"type": kind}}}, {"v": given})
    assert problems == [message]


def test_exact_match_wins_over_coercion_in_unions() -> None:
    schema = {
        "type": "object",
        "properties": {"v": {"anyOf": [{"type": "integer"}, {"type": "string"}]}},
    }
    assert _validate(schema, {"v": "7"})[0] == {"v": "7"}  # a string is accepted as is
    assert _validate(schema, {"v": 7})[0] == {"v": 7}
    schema = {"type": "object", "properties": {"v": {"type": ["integer", "null"]}}}
    assert _validate(schema, {"v": "7"})[0] == {"v": 7}  # no exact match: coerced
    assert _validate(schema, {"v": None})[0] == {"v": None}
    assert _validate(schema, {"v": "x"})[1] == [
        "Argument 'v': expected an integer or null, got 'x'."
    ]


def test_union_reports_the_branch_of_the_right_shape() -> None:
    schema = {
        "type": "object",
        "properties": {
            "p": {
                "anyOf": [
                    {
                        "type": "object",
                        "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}},
                        "required": ["x"],
                    },
                    {"type": "null"},
                ]
            }
        },
    }
    _, problems = _validate(schema, {"p": {"x": "1", "y": "bad"}})
    assert problems == ["Argument 'p.y': expected an integer, got 'bad'."]


def test_enum_and_const() -> None:
    schema = {
        "type": "object",
        "properties": {
            "level": {"type": "integer", "enum": [1, 2, 3]},
            "size": {"enum": [10, 20]},
            "kind": {"const": "fixed"},
            "flag": {"enum": [1, 0]},
        },
    }
    assert _validate(schema, {"level": "2", "size": "20", "kind": "fixed"}) == (
        {"level": 2, "size": 20, "kind": "fixed"},
        [],
    )
    _, problems = _validate(schema, {"level": 5, "kind": "other", "flag": True})
    assert problems == [
        "Argument 'level': expected one of 1, 2, 3, got 5.",
        "Argument 'kind': expected 'fixed', got 'other'.",
        "Argument 'flag': expected one of 1, 0, got true.",
    ]


def test_nested_objects_arrays_and_defaults() -> None:
    schema = {
        "type": "object",
        "properties": {
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "qty": {"type": "integer", "default": 1},
                    },
                    "required": ["name"],
                    "additionalProperties": False,
                },
                "minItems": 1,
            },
            "options": {
                "type": "object",
                "properties": {"fast": {"type": "boolean", "default": False}},
                "default": {},
            },
        },
        "required": ["items"],
    }
    result, problems = _validate(schema, {"items": [{"name": "a"}, {"name": "b", "qty": "4"}]})
    assert problems == []
    assert result == {"items": [{"name": "a", "qty": 1}, {"name": "b", "qty": 4}], "options": {}}
    _, problems = _validate(
        schema, {"items": [{"qty": 2, "colour": "red"}], "options": {"fast": "x"}}
    )
    assert problems == [
        "Argument 'items[0]': missing required key 'name'.",
        "Unknown key 'colour' in 'items[0]'. Accepted keys: name, qty.",
        "Argument 'options.fast': expected a boolean (true or false), got 'x'.",
    ]
    _, problems = _validate(schema, {"items": []})
    assert problems == ["Argument 'items': expected at least 1 items, got 0."]


def test_defaults_are_copied_not_shared() -> None:
    validator = SchemaValidator(
        {"type": "object", "properties": {"tags": {"type": "array", "default": []}}}
    )
    first, _ = validator.validate({})
    first["tags"].append("changed")
    second, _ = validator.validate({})
    assert second == {"tags": []}


def test_refs_and_recursion() -> None:
    schema = {
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/Node"}},
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {
                    "value": {"type": "integer"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                },
                "required": ["value"],
            }
        },
    }
    result, problems = _validate(schema, {"tree": {"value": "1", "children": [{"value": "2"}]}})
    assert problems == []
    assert result == {"tree": {"value": 1, "children": [{"value": 2}]}}
    _, problems = _validate(schema, {"tree": {"value": 1, "children": [{"value": "x"}]}})
    assert problems == ["Argument 'tree.children[0].value': expected an integer, got 'x'."]


def test_string_number_and_array_constraints() -> None:
    schema = {
        "type": "object",
        "properties": {
            "code": {"type": "string", "minLength": 2, "maxLength": 4, "pattern": "^[A-Z]+$"},
            "ratio": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
            "step": {"type": "integer", "multipleOf": 5},
            "ids": {"type": "array", "uniqueItems": True, "maxItems": 3},
        },
    }
    assert _validate(schema, {"code": "AB", "ratio": "0.5", "step": 10, "ids": [1, 2]})[1] == []
    _, problems = _validate(schema, {"code": "abcde", "ratio": 0, "step": 7, "ids": [1, 1, 2, 3]})
    assert problems == [
        "Argument 'code': expected at most 4 characters, got 5.",
        "Argument 'code': expected a string matching ^[A-Z]+$, got 'abcde'.",
        "Argument 'ratio': expected a number > 0, got 0.",
        "Argument 'step': expected a multiple of 5, got 7.",
        "Argument 'ids': expected at most 3 items, got 4.",
        "Argument 'ids': expected unique items, got duplicates.",
    ]


def test_all_of_applies_every_branch() -> None:
    schema = {"allOf": [{"type": "integer"}, {"minimum": 10}]}
    assert SchemaValidator(schema).validate("12") == (12, [])
    _, problems = SchemaValidator(schema).validate("3")
    assert [problem.render() for problem in problems] == ["expected a number >= 10, got 3."]


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        ({"type": "text"}, "unknown JSON Schema type"),
        ({"properties": {"a": {"$ref": "other.json#/x"}}}, "only local"),
        ({"properties": {"a": {"$ref": "#/$defs/missing"}}}, "points to nothing"),
        ({"properties": {"a": {"type": "string", "pattern": "("}}}, "invalid 'pattern'"),
        ({"required": "a"}, "'required' must be a list"),
        ({"properties": []}, "'properties' must be an object"),
        ({"enum": "abc"}, "'enum' must be a list"),
    ],
)
def test_malformed_schemas_are_refused_up_front(schema: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SchemaValidator(schema)


def test_ref_loop_is_refused_when_the_schema_is_checked() -> None:
    with pytest.raises(SchemaDefinitionError, match="loop") as caught:
        SchemaValidator({"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"})
    assert caught.value.path == ("$defs", "a")


@pytest.mark.parametrize(
    "schema",
    [
        {"$ref": "#"},
        {"anyOf": [{"type": "string"}, {"$ref": "#"}]},
        {
            "$defs": {
                "a": {"allOf": [{"$ref": "#/$defs/b"}]},
                "b": {"oneOf": [{"$ref": "#/$defs/a"}]},
            },
            "properties": {"x": {"$ref": "#/$defs/a"}},
        },
    ],
)
def test_loops_through_branches_are_refused_too(schema: dict[str, object]) -> None:
    with pytest.raises(SchemaDefinitionError, match="loop"):
        SchemaValidator(schema)


def test_a_schema_that_refers_to_itself_below_a_property_is_a_tree_not_a_loop() -> None:
    tree = {
        "type": "object",
        "properties": {"children": {"type": "array", "items": {"$ref": "#"}}},
        "anyOf": [{"$ref": "#/$defs/named"}],
        "$defs": {"named": {"required": ["name"]}},
    }
    validator = SchemaValidator(tree)
    value = {"name": "a", "children": [{"name": "b", "children": []}]}
    assert validator.validate(value) == (value, [])


def test_ignored_keywords_do_not_fail() -> None:
    schema = {
        "type": "object",
        "title": "Args",
        "description": "d",
        "properties": {"url": {"type": "string", "format": "uri", "examples": ["x"]}},
    }
    assert _validate(schema, {"url": "not checked"}) == ({"url": "not checked"}, [])
