"""Schema generation of function tools: every type feature, descriptions, tidy output."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal, Optional

import pytest
from pydantic import BaseModel, Field

from gent_core.context import ExecutionContext
from gent_core.tools import FunctionTool, tool


class Point(BaseModel):
    """A point on the plane."""

    x: int
    y: int = 0


class Node(BaseModel):
    value: int
    children: list[Node] = []


def _walk_keys(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [key for key, value in node.items() for key in [key, *_walk_keys(value)]]
    if isinstance(node, list):
        return [key for item in node for key in _walk_keys(item)]
    return []


def test_required_and_default_arguments() -> None:
    @tool
    def search(query: str, limit: int = 5, exact: bool = False, ratio: float = 0.5) -> str:
        return query

    schema = search.parameters
    assert schema["type"] == "object"
    assert schema["required"] == ["query"]
    assert schema["properties"]["query"] == {"type": "string"}
    assert schema["properties"]["limit"] == {"type": "integer", "default": 5}
    assert schema["properties"]["exact"] == {"type": "boolean", "default": False}
    assert schema["properties"]["ratio"] == {"type": "number", "default": 0.5}
    assert schema["additionalProperties"] is False


def test_literal_becomes_enum() -> None:
    @tool
    def convert(unit: Literal["celsius", "fahrenheit"] = "celsius") -> str:
        return unit

    prop = convert.parameters["properties"]["unit"]
    assert prop["enum"] == ["celsius", "fahrenheit"]
    assert prop["type"] == "string"
    assert prop["default"] == "celsius"


def test_optional_argument_accepts_null() -> None:
    @tool
    def f(limit: Optional[int] = None, other: int | None = None) -> None:  # noqa: UP045
        return None

    for name in ("limit", "other"):
        prop = f.parameters["properties"][name]
        assert prop["anyOf"] == [{"type": "integer"}, {"type": "null"}]
        assert prop["default"] is None
    assert "required" not in f.parameters or f.parameters["required"] == []


def test_lists_and_dicts() -> None:
    @tool
    def f(tags: list[str], weights: dict[str, float], matrix: list[list[int]]) -> None:
        return None

    props = f.parameters["properties"]
    assert props["tags"] == {"type": "array", "items": {"type": "string"}}
    assert props["weights"] == {"type": "object", "additionalProperties": {"type": "number"}}
    assert props["matrix"]["items"] == {"type": "array", "items": {"type": "integer"}}


def test_nested_model_is_inlined_without_titles() -> None:
    @tool
    def move(point: Annotated[Point, Field(description="where to go")]) -> None:
        return None

    schema = move.parameters
    assert "$defs" not in schema
    assert "title" not in _walk_keys(schema)
    point = schema["properties"]["point"]
    assert point["type"] == "object"
    assert point["properties"] == {"x": {"type": "integer"}, "y": {"type": "integer", "default": 0}}
    assert point["required"] == ["x"]
    # the field's own description wins over the class docstring
    assert point["description"] == "where to go"


def test_recursive_model_keeps_valid_defs() -> None:
    @tool
    def tree(root: Node) -> None:
        return None

    schema = tree.parameters
    assert schema["properties"]["root"] == {"$ref": "#/$defs/Node"}
    node = schema["$defs"]["Node"]
    assert node["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    assert "title" not in _walk_keys(schema)


def test_a_property_named_title_survives_title_cleaning() -> None:
    @tool
    def publish(title: str, body: str = "") -> None:
        return None

    assert set(publish.parameters["properties"]) == {"title", "body"}
    assert publish.parameters["required"] == ["title"]


def test_annotated_field_description_and_constraints() -> None:
    @tool
    def f(count: Annotated[int, Field(description="how many", ge=1, le=10)] = 3) -> None:
        return None

    assert f.parameters["properties"]["count"] == {
        "type": "integer",
        "description": "how many",
        "minimum": 1,
        "maximum": 10,
        "default": 3,
    }


def test_field_as_default_value() -> None:
    @tool
    def f(count: int = Field(default=2, description="how many")) -> int:
        return count

    assert f.parameters["properties"]["count"] == {
        "type": "integer",
        "description": "how many",
        "default": 2,
    }
    assert f.validate_arguments({}) == {"count": 2}


def test_google_docstring_gives_description_and_argument_descriptions() -> None:
    @tool
    def f(path: str, count: int = 1) -> str:
        """Read lines from a file.

        The lines are returned in order.

        Args:
            path: The file to read,
                relative to the working directory.
            count (int): How many lines.

        Returns:
            The lines.
        """
        return path

    assert (
        f.description
        == "Read lines from a file.\n\nThe lines are returned in order.\n\nReturns:\n    The lines."
    )
    props = f.parameters["properties"]
    assert props["path"]["description"] == "The file to read, relative to the working directory."
    assert props["count"]["description"] == "How many lines."


def test_annotated_description_wins_over_docstring() -> None:
    @tool
    def f(path: Annotated[str, Field(description="from Field")]) -> str:
        """Do it.

        Args:
            path: from the docstring
        """
        return path

    assert f.parameters["properties"]["path"]["description"] == "from Field"


def test_decorator_overrides_name_and_description_and_sets_timeout() -> None:
    @tool(name="lookup", description="Look a word up.", timeout=2.5)
    def f(word: str) -> str:
        """Ignored docstring."""
        return word

    assert isinstance(f, FunctionTool)
    assert (f.name, f.description, f.timeout) == ("lookup", "Look a word up.", 2.5)
    assert tool(lambda x: x, name="identity").name == "identity"


def test_injected_parameters_are_not_in_the_schema() -> None:
    @tool
    def f(text: str, context: ExecutionContext, *, working_directory: Path) -> str:
        return text

    assert list(f.parameters["properties"]) == ["text"]
    assert f.parameters["required"] == ["text"]


def test_to_llm_schema_shape() -> None:
    @tool
    def add(a: int, b: int = 1) -> int:
        """Add two integers."""
        return a + b

    llm = add.to_llm_schema()
    assert llm == {
        "type": "function",
        "function": {
            "name": "add",
            "description": "Add two integers.",
            "parameters": {
                "type": "object",
                "properties": {"a": {"type": "integer"}, "b": {"type": "integer", "default": 1}},
                "required": ["a"],
                "additionalProperties": False,
            },
        },
    }
    json.dumps(llm)  # JSON-ready


def test_names_that_clash_with_pydantic_attributes_are_fine() -> None:
    @tool
    def f(json: str, copy: int = 0, model_config: str = "", schema: bool = False) -> str:
        return json

    assert list(f.parameters["properties"]) == ["json", "copy", "model_config", "schema"]
    assert f.validate_arguments({"json": "x", "copy": "2"}) == {
        "json": "x",
        "copy": 2,
        "model_config": "",
        "schema": False,
    }


def test_type_defined_inside_a_function_resolves() -> None:
    class Local(BaseModel):
        size: int

    @tool
    def f(item: Local) -> int:
        return item.size

    assert f.parameters["properties"]["item"]["properties"] == {"size": {"type": "integer"}}


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def f(*values: int) -> None: ...", "*args and **kwargs"),
        ("def f(**options: int) -> None: ...", "*args and **kwargs"),
        ("def f(working_directory: int) -> None: ...", "working_directory"),
        ("def f(x: 'Missing') -> None: ...", "cannot resolve"),
        ("def f(x: int) -> None:\n    yield x", "not yield"),
    ],
)
def test_functions_that_cannot_be_tools(source: str, message: str) -> None:
    namespace: dict[str, Any] = {}
    exec(source, namespace)
    with pytest.raises(TypeError, match=message.replace("*", r"\*")):
        tool(namespace["f"])


@pytest.mark.parametrize("name", ["", "has space", "plugin:name", "1abc", "x" * 65])
def test_invalid_tool_names_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match="invalid tool name"):
        tool(lambda: None, name=name)


def test_unsupported_type_is_a_clear_error() -> None:
    class Opaque:
        pass

    with pytest.raises(TypeError, match="cannot build the argument schema"):

        @tool
        def f(thing: Opaque) -> None:
            return None
