"""JSON Schema to GBNF: everything the grammar allows validates, and valid values are allowed."""

from __future__ import annotations

import datetime as dt
import enum
import json
import random
import uuid
from typing import Any, Literal

import pytest
import yaml
from pydantic import BaseModel, Field

from gent_core._grammar import GrammarBuilder, JSONSchemaConverter, SchemaGrammarError, check_gbnf
from gent_core._grammar.match import GrammarMatcher
from gent_core._grammar.sample import sample
from tests.grammar.grammar_llama_check import llama_accepts


def grammar_for(schema: dict[str, Any], flavor: Literal["json", "yaml"] = "json") -> str:
    builder = GrammarBuilder()
    rule = JSONSchemaConverter(builder, flavor=flavor).convert(schema, "value")
    text = builder.build(rule).text
    check_gbnf(text)
    return text


class Color(str, enum.Enum):
    RED = "red"
    GREEN = "green"


class Address(BaseModel):
    street: str
    city: str = Field(description="City name")
    zip: str | None = None


class Person(BaseModel):
    name: str
    age: int
    height: float
    active: bool
    color: Color
    kind: Literal["a", "b"]
    address: Address
    previous: list[Address] = []
    tags: list[str] = []
    scores: dict[str, int] = {}
    nickname: str | None = None
    born: dt.date
    seen: dt.datetime
    wake: dt.time
    ident: uuid.UUID
    wait: dt.timedelta


class Tree(BaseModel):
    label: str
    children: list[Tree] = []


MODELS: list[type[BaseModel]] = [Person, Address, Tree]


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
@pytest.mark.parametrize("flavor", ["json", "yaml"])
def test_every_sampled_value_validates_against_the_pydantic_model(
    model: type[BaseModel], flavor: Literal["json", "yaml"]
) -> None:
    grammar = grammar_for(model.model_json_schema(), flavor)
    rng = random.Random(7)
    for _ in range(60):
        text = sample(grammar, rng, max_repeat=3)
        value = json.loads(text) if flavor == "json" else yaml.safe_load(text)
        if flavor == "yaml":
            assert value == json.loads(text), text  # YAML reads the flow text as JSON does
        model.model_validate(value if flavor == "json" else json.loads(text))


def test_valid_values_written_as_json_are_accepted() -> None:
    matcher = GrammarMatcher(grammar_for(Person.model_json_schema()))
    person = Person(
        name='Ada "the first"\n',
        age=36,
        height=1.65,
        active=True,
        color=Color.RED,
        kind="b",
        address=Address(street="1 Main St", city="Paris"),
        previous=[Address(street="x", city="y", zip="75001")],
        tags=["a", "b"],
        scores={"x": 1},
        born=dt.date(1815, 12, 10),
        seen=dt.datetime(2024, 5, 1, 9, 30),
        wake=dt.time(7, 0),
        ident=uuid.uuid4(),
        wait=dt.timedelta(hours=1, minutes=30),
    )
    dumped = person.model_dump(mode="json")
    required = Person.model_json_schema()["required"]
    # required properties come first in the grammar, then optional ones, in schema order
    data = {key: dumped[key] for key in required}
    data.update({key: value for key, value in dumped.items() if key not in required})
    assert matcher.matches(json.dumps(data))
    assert matcher.matches(json.dumps(data, indent=2))
    assert not matcher.matches(json.dumps({**data, "age": "36"}))
    assert not matcher.matches(json.dumps({**data, "color": "blue"}))
    assert not matcher.matches(json.dumps({**data, "born": "2024-02-30"}))
    without_name = {key: value for key, value in data.items() if key != "name"}
    assert not matcher.matches(json.dumps(without_name))
    assert not matcher.matches(json.dumps({**data, "unknown": 1}))


def test_optional_properties_may_be_left_out_in_any_combination() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "b": {"type": "integer"},
            "c": {"type": "integer"},
        },
    }
    matcher = GrammarMatcher(grammar_for(schema))
    for keys in ["", "a", "b", "c", "ab", "ac", "bc", "abc"]:
        assert matcher.matches(json.dumps({key: 1 for key in keys})), keys
    assert not matcher.matches('{"a": 1,}')
    assert not matcher.matches('{, "a": 1}')


def test_strings_refuse_raw_line_breaks_and_unescaped_quotes() -> None:
    matcher = GrammarMatcher(grammar_for({"type": "string"}))
    assert matcher.matches(json.dumps('line\nbreak "quoted" \\ tab\t é \u0001'))
    assert not matcher.matches('"line\nbreak"')
    assert not matcher.matches('"a"b"')
    assert not matcher.matches('"\\q"')


def test_xml_safe_strings_never_hold_a_closing_tag() -> None:
    builder = GrammarBuilder()
    rule = JSONSchemaConverter(builder, xml_safe=True).convert({"type": "string"}, "s")
    matcher = GrammarMatcher(builder.build(rule).text)
    assert matcher.matches('"a < b and <b>bold"')
    assert not matcher.matches('"</action>"')
    assert matcher.matches('"<\\/action>"')
    assert not matcher.matches('"ends with <"')
    assert not matcher.matches('"<</x"')
    assert matcher.matches('"<<x"')


@pytest.mark.parametrize(
    ("schema", "good", "bad"),
    [
        ({"type": "string", "minLength": 2, "maxLength": 3}, ['"ab"', '"abc"'], ['"a"', '"abcd"']),
        (
            {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 2},
            ["[1]", "[1, 2]"],
            ["[]", "[1, 2, 3]"],
        ),
        (
            {"type": "array", "prefixItems": [{"type": "string"}, {"type": "boolean"}]},
            ['["a", true]'],
            ['["a"]', "[true, true]"],
        ),
        ({"const": {"k": [1, None]}}, ['{"k": [1, null]}'], ['{"k": [1]}']),
        ({"type": ["integer", "null"]}, ["3", "null"], ['"3"', "3.5"]),
        ({"type": "number", "nullable": True}, ["-0.5e3", "null"], ["true"]),
        (
            {
                "allOf": [
                    {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
                    {"properties": {"b": {"type": "string"}}},
                ]
            },
            ['{"a": 1}', '{"a": 1, "b": "x"}'],
            ["{}", '{"b": "x"}'],
        ),
        ({"oneOf": [{"type": "boolean"}, {"enum": [1, "two"]}]}, ["false", "1", '"two"'], ["2"]),
        ({"type": "object", "additionalProperties": False}, ["{}"], ['{"a": 1}']),
        (
            {"type": "object", "additionalProperties": {"type": "boolean"}},
            ["{}", '{"x": true, "y": false}'],
            ['{"x": 1}'],
        ),
        ({}, ['{"any": [1, "x", null, {"n": false}]}', "3"], ["{'a': 1}"]),
        ({"type": "integer"}, ["0", "-12"], ["012", "1.0", "+1"]),
    ],
)
def test_schema_keywords(schema: dict[str, Any], good: list[str], bad: list[str]) -> None:
    matcher = GrammarMatcher(grammar_for(schema))
    for text in good:
        assert matcher.matches(text), text
    for text in bad:
        assert not matcher.matches(text), text


def test_yaml_flavour_writes_numbers_yaml_reads_as_numbers() -> None:
    matcher = GrammarMatcher(grammar_for({"type": "number"}, "yaml"))
    assert matcher.matches("-2.5")
    assert not matcher.matches("1e5")  # YAML 1.1 would read this as a string
    flow = GrammarMatcher(
        grammar_for({"type": "object", "properties": {"a": {"type": "integer"}}}, "yaml")
    )
    assert flow.matches('{"a": 1}')
    assert not flow.matches('{"a":1}')


def test_recursive_refs_and_bad_refs() -> None:
    matcher = GrammarMatcher(grammar_for(Tree.model_json_schema()))
    assert matcher.matches('{"label": "a", "children": [{"label": "b", "children": []}]}')
    with pytest.raises(SchemaGrammarError, match="cannot resolve"):
        grammar_for({"$ref": "#/$defs/Missing"})
    with pytest.raises(SchemaGrammarError, match="only local"):
        grammar_for({"$ref": "http://example.com/schema"})
    with pytest.raises(SchemaGrammarError, match="empty enum"):
        grammar_for({"enum": []})


def test_lists_without_max_items_are_bounded_and_numbers_finite() -> None:
    from gent_core._grammar import DEFAULT_MAX_ITEMS

    matcher = GrammarMatcher(grammar_for({"type": "array", "items": {"type": "number"}}))
    assert matcher.matches(json.dumps([1.5] * DEFAULT_MAX_ITEMS))
    assert not matcher.matches(json.dumps([1.5] * (DEFAULT_MAX_ITEMS + 1)))
    assert matcher.matches("[1e99]") and not matcher.matches("[1e999]")
    bounded = GrammarMatcher(grammar_for({"type": "array", "maxItems": 20}))
    assert bounded.matches(json.dumps(list(range(20))))
    dictionary = GrammarMatcher(
        grammar_for({"type": "object", "additionalProperties": {"type": "integer"}})
    )
    assert dictionary.matches(json.dumps({str(i): i for i in range(DEFAULT_MAX_ITEMS)}))
    assert not dictionary.matches(json.dumps({str(i): i for i in range(DEFAULT_MAX_ITEMS + 1)}))


def test_strings_never_hold_the_texts_to_avoid() -> None:
    builder = GrammarBuilder(avoid=("</action>", "[[/x]]"))
    rule = JSONSchemaConverter(builder).convert({"type": "string"}, "value")
    matcher = GrammarMatcher(builder.build(rule).text)
    assert matcher.matches('"a < b, [x], </b"') is False  # "</" starts "</action>"
    assert matcher.matches('"a < b, [x] and <\\/tag>"')
    assert not matcher.matches('"see </ACTION>"')
    assert not matcher.matches('"[[/x]]"')
    assert not matcher.matches('"ends with <"')  # a start character is never last
    rng = random.Random(5)
    for _ in range(200):
        text = sample(builder.build(rule).text, rng, max_repeat=6)
        assert "</" not in text.lower() and "[[" not in text


def test_single_line_values_for_line_based_syntaxes() -> None:
    builder = GrammarBuilder()
    rule = JSONSchemaConverter(builder, line_breaks=False).convert(
        Person.model_json_schema(), "value"
    )
    text = builder.build(rule).text
    rng = random.Random(9)
    for _ in range(50):
        assert "\n" not in sample(text, rng, max_repeat=3)


@pytest.mark.llama
def test_llama_cpp_accepts_every_schema_grammar() -> None:
    grammars = [
        grammar_for(model.model_json_schema(), flavor)
        for model in MODELS
        for flavor in ("json", "yaml")
    ]
    assert all(llama_accepts(grammars))
