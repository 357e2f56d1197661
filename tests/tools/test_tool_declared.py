"""Tools declared from a schema alone: the accepted shapes, validation, the stub result, the
stop, and arguments that are never injected (whatever their names)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gent_json import JSONToolChain
from gent_xml import XMLFormat

from gent_core._agent import Agent
from gent_core.errors import InvalidToolArgumentsError
from gent_core.testing import ScriptedModel
from gent_core.tools import BaseTool, DeclaredTool, load_declarations, read_declarations
from gent_core.tools._declarations import DeclarationError

SCHEMA = {
    "type": "object",
    "properties": {"number": {"type": "integer", "description": "a whole number"}},
    "required": ["number"],
}


def test_a_declared_tool_validates_like_any_tool_and_answers_its_stub() -> None:
    tool = DeclaredTool("math.factorial", "Factorial of a number.", SCHEMA, result={"value": 120})
    assert tool.validate_arguments({"number": "5"}) == {"number": 5}  # coerced
    with pytest.raises(InvalidToolArgumentsError, match="number"):
        tool.validate_arguments({})
    agent = Agent(
        ScriptedModel(
            [
                '<action>{"tool": "math.factorial", "args": {"number": 5}}</action>',
                "<answer>120</answer>",
            ]
        ),
        XMLFormat(),
        JSONToolChain(),
        tools=[tool],
    )
    result = agent.run_sync("What is 5!?")
    assert result.ok and result.answer == "120"
    assert [(call.tool, call.args, call.output) for call in result.steps[0].calls] == [
        ("math.factorial", {"number": 5}, {"value": 120})
    ]


def test_a_stopping_tool_records_the_calls_and_stops_the_run() -> None:
    stop = DeclaredTool("lookup", "Look a word up.", {"properties": {"word": {}}}, stop=True)
    other = DeclaredTool("note", "Keep a note.", {"properties": {"text": {"type": "string"}}})
    model = ScriptedModel(
        [
            '<action>[{"tool": "lookup", "args": {"word": "gent"}}, '
            '{"tool": "note", "args": {"text": "x"}}]</action>',
            "<answer>never asked</answer>",
        ]
    )
    result = Agent(model, XMLFormat(), JSONToolChain(), tools=[stop, other]).run_sync("q")
    assert result.stop_reason == "tool_stop" and result.answer is None and not result.ok
    assert "lookup asked to stop it" in result.message
    assert [(call.tool, call.args) for call in result.steps[0].calls] == [
        ("lookup", {"word": "gent"}),
        ("note", {"text": "x"}),
    ]
    assert model.remaining == 1  # nothing more was asked of the model


def test_a_call_that_fails_does_not_stop_the_run() -> None:
    stop = DeclaredTool("lookup", "", SCHEMA, stop=True)
    model = ScriptedModel(
        ['<action>{"tool": "lookup", "args": {}}</action>'] * 3 + ["<answer>ok</answer>"]
    )
    result = Agent(model, XMLFormat(), JSONToolChain(), tools=[stop]).run_sync("q")
    assert result.stop_reason == "answer"
    assert result.steps[0].calls[0].status == "error"


@pytest.mark.parametrize("name", ["context", "working_directory", "self"])
def test_arguments_are_never_injected_whatever_their_names(name: str) -> None:
    """A declared tool's arguments are its schema's properties: gent injects nothing into
    them, so names gent uses for injection elsewhere are plain arguments."""
    schema = {
        "properties": {name: {"type": "string"}, "n": {"type": "integer"}},
        "required": [name],
    }
    tool = DeclaredTool("fill", "", schema)
    assert tool.validate_arguments({name: "given", "n": 2}) == {name: "given", "n": 2}
    call = json.dumps({"tool": "fill", "args": {name: "given"}})
    model = ScriptedModel([f"<action>{call}</action>", "<answer>done</answer>"])
    result = Agent(model, XMLFormat(), JSONToolChain(), tools=[tool]).run_sync("q")
    assert result.ok
    assert [(c.args, c.status) for c in result.steps[0].calls] == [({name: "given"}, "success")]


def test_a_base_tool_refuses_only_a_property_its_run_has_injected() -> None:
    class Takes(BaseTool):
        name = "takes"
        parameters = {"type": "object", "properties": {"context": {"type": "string"}}}  # noqa: RUF012

        async def run(self, working_directory: Path, **arguments: Any) -> Any:
            return arguments["context"]

    assert Takes().validate_arguments({"context": "a text"}) == {"context": "a text"}

    with pytest.raises(TypeError, match="'context' collides with run\\(\\)'s parameter 'context'"):

        class Injected(BaseTool):
            name = "injected"
            parameters = {"type": "object", "properties": {"context": {"type": "string"}}}  # noqa: RUF012

            async def run(self, working_directory: Path, context: Any, **arguments: Any) -> Any:
                return None

    with pytest.raises(TypeError, match="'working_directory' collides"):

        class Directory(BaseTool):
            name = "directory"
            parameters = {"type": "object", "properties": {"working_directory": {}}}  # noqa: RUF012

            async def run(self, working_directory: Path, **arguments: Any) -> Any:
                return None


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"type": "array"}, "tool 't': the parameters must be an object schema"),
        ({"properties": {"a": {"type": "strange"}}}, "tool 't': its parameters cannot be used"),
        ({"properties": {"a": {"type": "string", "pattern": "("}}}, "cannot be used"),
    ],
)
def test_an_unusable_schema_is_an_error_naming_the_tool(bad: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        DeclaredTool("t", "", bad)


def test_tool_names_may_hold_dots_but_not_anywhere() -> None:
    assert DeclaredTool("a.b.c_d-e", "").name == "a.b.c_d-e"
    for bad in ("a.", ".a", "a..b", "a.1", "1a", "a:b", "a b", "a" * 65):
        with pytest.raises(ValueError, match="invalid tool name"):
            DeclaredTool(bad, "")


# ----------------------------------------------------------------------------- shapes

FUNCTION = {"name": "get.weather", "description": "The weather.", "parameters": SCHEMA}


@pytest.mark.parametrize(
    "data",
    [
        FUNCTION,
        [FUNCTION],
        [{"type": "function", "function": FUNCTION}],  # an OpenAI tool list
        {"tools": [{"type": "function", "function": FUNCTION}]},  # a request body's tools
        {"tools": [{"name": "get.weather", "description": "The weather.", "inputSchema": SCHEMA}]},
    ],
    ids=["function", "functions", "openai-tools", "listing-openai", "mcp-tools-list"],
)
def test_every_accepted_shape_reads_the_same(data: Any) -> None:
    (declaration,) = read_declarations(data)
    assert (declaration.name, declaration.description) == ("get.weather", "The weather.")
    assert declaration.parameters == SCHEMA


def test_python_type_names_become_json_schema_types_at_every_depth() -> None:
    """Function docs generated from Python code (BFCL's) say dict, float, tuple, any."""
    doc: dict[str, Any] = {
        "name": "plot",
        "parameters": {
            "type": "dict",
            "properties": {
                "points": {"type": "array", "items": {"type": "tuple", "items": {"type": "float"}}},
                "style": {
                    "type": "dict",
                    "properties": {"label": {"type": "any"}},
                    "optional": True,
                },
                "count": {"type": ["int", "null"]},
            },
            "required": ["points"],
        },
    }
    (declaration,) = read_declarations([doc])
    assert declaration.parameters == {
        "type": "object",
        "properties": {
            "points": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
            "style": {"type": "object", "properties": {"label": {}}},
            "count": {"type": ["integer", "null"]},
        },
        "required": ["points"],
    }
    assert doc["parameters"]["type"] == "dict"  # the input is not changed


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (7, "expected a function {name, description, parameters}"),
        (
            [{"description": "no name"}],
            "entry 1: a declaration needs a 'name' (its keys are: description)",
        ),
        (
            [FUNCTION, {"name": "x", "parameters": 3}],
            "entry 2 (x): the parameters must be a JSON Schema",
        ),
        (
            [{"name": "x", "parameters": {"properties": {"a": {"type": "text"}}}}],
            "a: unknown type 'text'",
        ),
        ([{"name": "x", "parameters": {}, "inputSchema": {}}], "not both"),
    ],
)
def test_what_cannot_be_read_is_an_error_saying_where_and_what_is_accepted(
    data: Any, message: str
) -> None:
    with pytest.raises(DeclarationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_declarations(data)


def test_files_are_read_as_json_or_yaml(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(json.dumps([FUNCTION]))
    (tmp_path / "tools.yaml").write_text(
        "tools:\n  - name: get.weather\n    description: The weather.\n"
        "    inputSchema: {type: object, properties: {number: {type: integer, description: a whole"
        " number}}, required: [number]}\n"
    )
    assert load_declarations(tmp_path / "tools.json") == load_declarations(tmp_path / "tools.yaml")
    (tmp_path / "broken.json").write_text("[{")
    with pytest.raises(DeclarationError, match=r"broken\.json is not valid JSON"):
        load_declarations(tmp_path / "broken.json")
    with pytest.raises(DeclarationError, match=r"cannot read the tool declarations .*missing"):
        load_declarations(tmp_path / "missing.json")


def test_a_declaration_file_is_read_within_its_size_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 24: ``declare: {file: /dev/zero}`` read without bound (MemoryError). The read is
    stat-first and bounded as configs' are; the limit has its own variable.
    """
    with pytest.raises(DeclarationError) as caught:
        load_declarations("/dev/zero")
    message = str(caught.value)
    assert "cannot read the tool declarations /dev/zero: the tool declarations file holds" in (
        message
    )
    assert "GENT_MAX_DECLARATION_SIZE" in message
    big = tmp_path / "big.json"
    big.write_text(json.dumps([FUNCTION]) + " " * 5000)
    monkeypatch.setenv("GENT_MAX_DECLARATION_SIZE", "4K")
    with pytest.raises(DeclarationError, match=r"is 5,\d+ bytes .* at most 4,096 bytes"):
        load_declarations(big)
    monkeypatch.setenv("GENT_MAX_DECLARATION_SIZE", "8K")
    assert [d.name for d in load_declarations(big)] == [FUNCTION["name"]]


@pytest.mark.parametrize(
    ("name", "text", "problem"),
    [
        ("nan.json", '{"name": "t", "parameters": {"default": NaN}}', "NaN is not a JSON value"),
        ("deep.json", "[" * 5000 + "]" * 5000, "nests more than 100 levels deep"),
        (
            "bomb.yaml",
            "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
            + "".join(
                f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
                for p, c in zip("abcdef", "bcdefg", strict=True)
            ),
            "more than 100,000 values",
        ),
    ],
)
def test_a_declaration_file_is_parsed_within_gents_bounds(
    tmp_path: Path, name: str, text: str, problem: str
) -> None:
    """A variant: what the file holds obeys the bounds every JSON or YAML from outside does
    (strict JSON, nesting, YAML aliases expanded), each a one-line error naming the file.
    """
    (tmp_path / name).write_text(text)
    with pytest.raises(DeclarationError) as caught:
        load_declarations(tmp_path / name)
    message = str(caught.value)
    assert message.startswith(str(tmp_path / name))
    assert problem in message
    assert "\n" not in message
