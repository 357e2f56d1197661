"""Reading YAML calls: forms, safety (tags, alias bombs) and verbatim strings."""

from __future__ import annotations

import itertools
from contextlib import suppress
from typing import Any

import pytest
import yaml
from gent_yaml import YAMLToolChain
from gent_yaml.calls import read_yaml_calls
from hypothesis import given
from hypothesis import strategies as st

from gent_core.errors import (
    InvalidYAMLError,
    MissingToolNameError,
    TruncatedCallError,
)
from gent_core.testing import count_steps, profile_examples
from gent_core.toolchain import ToolCall
from tests.toolchains.chain_doubles import FakeTool


def _noop(**_: Any) -> None:
    return None


FORM = FakeTool(
    "form",
    _noop,
    {
        "date": {"type": "string"},
        "version": {"type": "string"},
        "answer": {"type": "string"},
        "zip": {"type": "string"},
        "flag": {"type": "string"},
        "count": {"type": "integer"},
        "ratio": {"type": "number"},
        "maybe": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "either": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
        "tags": {"type": "array", "items": {"type": "string"}},
        "nested": {"$ref": "#/$defs/Nested"},
    },
)
FORM.parameters["$defs"] = {
    "Nested": {"type": "object", "properties": {"code": {"type": "string"}}}
}
CHAIN = YAMLToolChain([FORM])


def parse(text: str) -> list[ToolCall]:
    return CHAIN.parse(text)


def test_one_call() -> None:
    assert parse("tool: search\nargs:\n  query: weather in Paris\n") == [
        ToolCall("search", {"query": "weather in Paris"}, "call_0")
    ]


def test_a_list_of_calls() -> None:
    text = "- tool: a\n  args:\n    n: 1\n- tool: b\n"
    assert parse(text) == [ToolCall("a", {"n": 1}, "call_0"), ToolCall("b", {}, "call_1")]


def test_block_scalars_for_multi_line_arguments() -> None:
    text = (
        "tool: write\nargs:\n  path: notes.md\n  content: |\n    # Title\n\n"
        "    - item: with colon\n      indented\n"
    )
    assert parse(text) == [
        ToolCall(
            "write",
            {"path": "notes.md", "content": "# Title\n\n- item: with colon\n  indented\n"},
            "call_0",
        )
    ]


def test_code_fence_and_prose_outside_it() -> None:
    text = "Here is my call:\n```yaml\ntool: search\nargs:\n  query: x\n```\nDone."
    assert parse(text) == [ToolCall("search", {"query": "x"}, "call_0")]


def test_indented_fences_inside_a_block_scalar_are_content() -> None:
    text = "```yaml\ntool: write\nargs:\n  content: |\n    ```python\n    x = 1\n    ```\n```"
    assert parse(text) == [ToolCall("write", {"content": "```python\nx = 1\n```\n"}, "call_0")]


def test_several_documents() -> None:
    assert parse("tool: a\n---\ntool: b\n") == [
        ToolCall("a", {}, "call_0"),
        ToolCall("b", {}, "call_1"),
    ]


def test_flow_style_and_name_arguments_keys() -> None:
    assert parse('{"name": "search", "arguments": {"query": "x"}}') == [
        ToolCall("search", {"query": "x"}, "call_0")
    ]


def test_arguments_as_a_json_string() -> None:
    text = 'name: search\narguments: \'{"query": "x"}\'\n'
    assert parse(text) == [ToolCall("search", {"query": "x"}, "call_0")]


def test_blank_and_comment_only_content_have_no_calls() -> None:
    assert parse("") == [] and parse("\n  \n") == [] and parse("# nothing to do\n") == []


def test_string_typed_values_are_kept_verbatim() -> None:
    text = (
        "tool: form\nargs:\n  date: 2026-01-20\n  version: 1.10\n  answer: no\n"
        "  zip: 01234\n  flag: true\n  count: 7\n  ratio: 2\n  maybe: 3.50\n  either: 012\n"
        "  tags: [1.0, yes, 2026-01-20]\n  nested: {code: 007}\n"
    )
    [call] = parse(text)
    assert call.args == {
        "date": "2026-01-20",
        "version": "1.10",
        "answer": "no",
        "zip": "01234",
        "flag": "true",
        "count": 7,
        "ratio": 2,
        "maybe": "3.50",
        "either": 12,  # the schema accepts an integer: not a string-only field
        "tags": ["1.0", "yes", "2026-01-20"],
        "nested": {"code": "007"},
    }


def test_null_stays_null_even_for_string_fields() -> None:
    [call] = parse("tool: form\nargs:\n  maybe: ~\n  answer: null\n")
    assert call.args == {"maybe": None, "answer": None}


def test_without_a_schema_values_follow_yaml_1_2_core() -> None:
    text = (
        "tool: unknown\nargs:\n  a: yes\n  b: 2026-01-20\n  c: 1.10\n  d: 0o17\n  e: 0x1F\n"
        "  f: TRUE\n  g: ~\n  h: 1_000\n  i: 1:20\n  k: 01234\n"
    )
    [call] = read_yaml_calls(text)
    assert call.args == {
        "a": "yes",
        "b": "2026-01-20",
        "c": 1.1,
        "d": 15,
        "e": 31,
        "f": True,
        "g": None,
        "h": "1_000",
        "i": "1:20",
        "k": 1234,
    }


# --------------------------------------------------------------------------- refused


@pytest.mark.parametrize(
    "text",
    [
        "tool: a\nargs: !!python/object/apply:os.system ['echo pwned']\n",
        "tool: a\nargs:\n  x: !!python/name:os.system\n",
        "!!python/object:collections.OrderedDict {tool: a}\n",
        "tool: a\nargs:\n  x: !custom 1\n",
        "tool: a\nargs:\n  x: !!binary aGVsbG8=\n",
    ],
    ids=["apply", "name", "object", "local-tag", "binary"],
)
def test_tags_other_than_the_core_ones_are_refused(text: str) -> None:
    with pytest.raises(InvalidYAMLError) as raised:
        parse(text)
    assert "is not allowed" in raised.value.model_message


def alias_bomb(levels: int) -> str:
    """A call whose arguments expand to ``9**levels`` strings through aliases."""
    names = "abcdefghijklmnop"[:levels]
    lines = [f"{names[0]}: &{names[0]} [" + ",".join(['"lol"'] * 9) + "]"]
    for previous, name in itertools.pairwise(names):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{previous}"] * 9) + "]")
    return "tool: t\nargs:\n" + "\n".join("  " + line for line in lines)


def test_an_alias_bomb_is_refused_without_being_expanded() -> None:
    def refuse(levels: int) -> Any:
        bomb = alias_bomb(levels)

        def run() -> None:
            with suppress(InvalidYAMLError):
                parse(bomb)

        return run

    # Refusing reads the text once: 9**7 values take no more steps than 9**6 (about 1.1 times,
    # for a line more of text), where expanding them would take 9 times more.
    six, seven = count_steps(refuse(6)), count_steps(refuse(7))
    assert seven < 3 * six, (six, seven)
    with pytest.raises(InvalidYAMLError) as raised:
        parse(alias_bomb(9))  # 9**9 values
    assert "expands to more than 100000 values" in raised.value.model_message


def test_small_aliases_are_fine() -> None:
    text = "- tool: a\n  args: &shared {q: x}\n- tool: b\n  args: *shared\n"
    assert parse(text) == [ToolCall("a", {"q": "x"}, "call_0"), ToolCall("b", {"q": "x"}, "call_1")]


def test_a_self_referencing_alias_is_refused() -> None:
    with pytest.raises(InvalidYAMLError, match="refers to a node that contains it"):
        parse("tool: a\nargs: &x {self: *x}\n")


@pytest.mark.parametrize(
    "text",
    [
        "tool: write\nargs: {path: a.txt, content: 'half",
        'tool: write\nargs:\n  content: "half a line',
        "- tool: a\n  args: {x: [1, 2",
    ],
    ids=["single-quote", "double-quote", "flow"],
)
def test_a_cut_off_call_is_refused(text: str) -> None:
    with pytest.raises(TruncatedCallError) as raised:
        parse(text)
    assert raised.value.model_message.endswith("write the complete call again.")


def test_invalid_yaml_says_where() -> None:
    with pytest.raises(InvalidYAMLError) as raised:
        parse("tool: a\n args: x\n")
    assert "line 2" in raised.value.model_message
    assert "tool: <tool name>" in raised.value.model_message


def test_prose_is_not_a_call() -> None:
    with pytest.raises(InvalidYAMLError) as raised:
        parse("I will search for the weather now")
    assert "is text, not a call" in raised.value.model_message


def test_a_call_without_tool_name() -> None:
    with pytest.raises(MissingToolNameError) as raised:
        parse("args:\n  query: x\n")
    assert 'Call 1 has no "tool" field' in raised.value.model_message


def test_a_list_item_that_is_not_a_call() -> None:
    with pytest.raises(InvalidYAMLError, match="not a call mapping"):
        parse("- tool: a\n- just text\n")


@pytest.mark.parametrize("fast", [True, False], ids=["libyaml", "pure-python"])
def test_both_loaders_compose_alike_and_bound_aliases(fast: bool) -> None:
    from gent_yaml.convert import to_python
    from gent_yaml.loader import FastCallLoader, YAMLLimitError, compose_documents

    if fast and FastCallLoader is None:
        pytest.skip("PyYAML was built without libyaml")
    [root] = compose_documents("a: yes\nb: 1.10\nc: [&x 1, *x]\n", fast=fast)
    assert root is not None and to_python(root) == {"a": "yes", "b": 1.1, "c": [1, 1]}
    bomb = "a: &a [1, 1, 1, 1]\nb: &b [*a, *a, *a, *a]\nc: [*b, *b, *b, *b]\n"
    # expanded: a = 5 nodes, b = 21, c = 85, plus the mapping and its 3 keys = 115
    with pytest.raises(YAMLLimitError):
        compose_documents(bomb, max_nodes=114, fast=fast)
    assert compose_documents(bomb, max_nodes=115, fast=fast)[0] is not None


# NEL (U+0085) is left out: PyYAML's dumper writes it raw in a quoted scalar, where YAML
# folds it into a space; that is the dumper's quirk, not the reader's.
_STRINGS = st.text(
    alphabet=st.characters(codec="utf-8", exclude_characters="\x85"),
    max_size=15,
)
_ALL_STRINGS = {"type": "object", "additionalProperties": {"type": "string"}}


@profile_examples(300)
@given(st.dictionaries(st.from_regex(r"[a-z]{1,8}", fullmatch=True), _STRINGS, max_size=5))
def test_string_arguments_survive_any_yaml_writing(args: dict[str, str]) -> None:
    for style in (None, False, True):  # plain/block, block, flow
        text = yaml.safe_dump(
            [{"tool": "t", "args": args}], default_flow_style=style, allow_unicode=True
        )
        assert read_yaml_calls(text, schemas=lambda _: _ALL_STRINGS) == [
            ToolCall("t", args, "call_0")
        ]
