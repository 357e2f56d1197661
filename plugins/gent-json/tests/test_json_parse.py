"""Reading JSON calls: the accepted messy forms, and what is refused."""

from __future__ import annotations

import contextlib
import json

import pytest
from gent_json import JSONToolChain, find_json_values, scan
from hypothesis import given, settings
from hypothesis import strategies as st

from gent_core.errors import (
    InvalidJSONError,
    MissingToolNameError,
    ParseError,
    TruncatedCallError,
)
from gent_core.testing import assert_linear, profile_examples
from gent_core.toolchain import ToolCall

CHAIN = JSONToolChain()


def parse(text: str) -> list[ToolCall]:
    return CHAIN.parse(text)


def test_one_call() -> None:
    assert parse('{"tool": "search", "args": {"query": "weather"}}') == [
        ToolCall("search", {"query": "weather"}, "call_0")
    ]


def test_a_list_of_calls() -> None:
    assert parse('[{"tool": "a", "args": {"x": 1}}, {"tool": "b", "args": {}}]') == [
        ToolCall("a", {"x": 1}, "call_0"),
        ToolCall("b", {}, "call_1"),
    ]


def test_code_fence() -> None:
    text = '```json\n{"tool": "search", "args": {"query": "x"}}\n```'
    assert parse(text) == [ToolCall("search", {"query": "x"}, "call_0")]


def test_prose_before_and_after() -> None:
    text = 'Let me look that up.\n{"tool": "search", "args": {"query": "x"}}\nThat should work.'
    assert parse(text) == [ToolCall("search", {"query": "x"}, "call_0")]


def test_prose_with_balanced_braces_before_the_call() -> None:
    text = 'I think {x} is needed. {"tool": "search", "args": {"query": "x"}}'
    assert parse(text) == [ToolCall("search", {"query": "x"}, "call_0")]


def test_prose_with_an_unbalanced_brace_before_the_call() -> None:
    text = 'Use { to open a block, then: {"tool": "search", "args": {"query": "x"}}'
    assert parse(text) == [ToolCall("search", {"query": "x"}, "call_0")]


def test_prose_braces_around_the_call() -> None:
    text = 'Plan {first {"tool": "search", "args": {"query": "x"}} then done}'
    assert parse(text) == [ToolCall("search", {"query": "x"}, "call_0")]


def test_prose_with_apostrophes_and_a_stray_closer() -> None:
    text = "I don't know} yet, so: {'tool': 'search', 'args': {'query': \"it's\"}}"
    assert parse(text) == [ToolCall("search", {"query": "it's"}, "call_0")]


def test_several_objects_one_after_another() -> None:
    text = '{"tool": "a", "args": {"n": 1}}\n{"tool": "b", "args": {"n": 2}},\n{"tool": "c"}'
    assert parse(text) == [
        ToolCall("a", {"n": 1}, "call_0"),
        ToolCall("b", {"n": 2}, "call_1"),
        ToolCall("c", {}, "call_2"),
    ]


def test_python_literal_style() -> None:
    text = "{'tool': 'set', 'args': {'on': True, 'off': False, 'none': None, 'q': 'x'}}"
    assert parse(text) == [
        ToolCall("set", {"on": True, "off": False, "none": None, "q": "x"}, "call_0")
    ]


def test_trailing_commas() -> None:
    text = '[{"tool": "a", "args": {"items": [1, 2,], "k": "v",},},]'
    assert parse(text) == [ToolCall("a", {"items": [1, 2], "k": "v"}, "call_0")]


def test_raw_newlines_inside_strings() -> None:
    text = '{"tool": "write", "args": {"content": "line one\nline two\n\tindented"}}'
    assert parse(text) == [
        ToolCall("write", {"content": "line one\nline two\n\tindented"}, "call_0")
    ]


def test_raw_newlines_inside_single_quoted_strings() -> None:
    text = "{'tool': 'write', 'args': {'content': 'a\nb'}}"
    assert parse(text) == [ToolCall("write", {"content": "a\nb"}, "call_0")]


def test_name_and_arguments_keys() -> None:
    text = '{"name": "search", "arguments": {"query": "x"}}'
    assert parse(text) == [ToolCall("search", {"query": "x"}, "call_0")]


def test_parameters_key() -> None:
    text = '{"tool": "search", "parameters": {"query": "x"}}'
    assert parse(text) == [ToolCall("search", {"query": "x"}, "call_0")]


def test_arguments_as_a_json_string() -> None:
    text = '{"name": "search", "arguments": "{\\"query\\": \\"x\\", \\"limit\\": 3}"}'
    assert parse(text) == [ToolCall("search", {"query": "x", "limit": 3}, "call_0")]


def test_openai_function_wrapper() -> None:
    text = '{"type": "function", "function": {"name": "search", "arguments": "{\\"q\\": 1}"}}'
    assert parse(text) == [ToolCall("search", {"q": 1}, "call_0")]


def test_strings_holding_brackets_and_quotes() -> None:
    text = r'{"tool": "write", "args": {"code": "if (x) { return \"}\"; } [", "re": "\d+"}}'
    assert parse(text) == [
        ToolCall("write", {"code": 'if (x) { return "}"; } [', "re": "\\d+"}, "call_0")
    ]


def test_blank_content_and_empty_list_have_no_calls() -> None:
    assert parse("") == []
    assert parse("   \n") == []
    assert parse("```json\n```") == []
    assert parse("[]") == []


def test_prose_list_markers_are_not_calls() -> None:
    text = 'See [1] and [the docs](x). {"tool": "a"}'
    assert parse(text) == [ToolCall("a", {}, "call_0")]


# --------------------------------------------------------------------------- refused


@pytest.mark.parametrize(
    "text",
    [
        '{"tool": "search", "args": {"query": "wea',
        '{"tool": "search", "args": {"query": "weather"}',
        '[{"tool": "a", "args": {}}, {"tool": "b", "args": {"x": [1, 2',
        '{"tool": "a", "args": {}}\n{"tool": "b", "args": {"text": "cut',
        "Here it is: {",
    ],
    ids=["open-string", "missing-brace", "list", "second-object", "bare-opener"],
)
def test_a_cut_off_call_is_refused_never_completed(text: str) -> None:
    with pytest.raises(TruncatedCallError) as raised:
        parse(text)
    message = raised.value.model_message
    assert message.startswith("Your call was cut off after `")
    assert message.endswith("write the complete call again.")
    assert text[-8:] in message


def test_invalid_json_quotes_where_it_went_wrong() -> None:
    with pytest.raises(InvalidJSONError) as raised:
        parse('{"tool": "search" "args": {}}')
    message = raised.value.model_message
    assert "expected ',' or '}'" in message and "line 1, column 19" in message
    assert '{"tool": "<tool name>", "args": {<arguments>}}' in message
    assert raised.value.location.line == 1 and raised.value.location.column == 19


def test_invalid_json_on_a_later_line_has_its_line() -> None:
    with pytest.raises(InvalidJSONError) as raised:
        parse('Calling:\n{"tool": "a",\n "args": {"x": tru}}')
    assert raised.value.location.line == 3
    assert "unexpected word 'tru'" in raised.value.model_message


def test_prose_without_a_call_is_invalid_json() -> None:
    with pytest.raises(InvalidJSONError) as raised:
        parse("I will now search for the weather.")
    assert "No tool call found in the action section: `I will now search" in (
        raised.value.model_message
    )


def test_a_call_without_tool_name() -> None:
    with pytest.raises(MissingToolNameError) as raised:
        parse('{"args": {"query": "x"}}')
    assert 'Call 1 has no "tool" field' in raised.value.model_message
    assert "(it has: args)" in raised.value.model_message


def test_the_second_call_without_tool_name_is_numbered() -> None:
    with pytest.raises(MissingToolNameError) as raised:
        parse('[{"tool": "a"}, {"query": "x"}]')
    assert raised.value.model_message.startswith('Call 2 has no "tool" field')


def test_a_non_string_tool_name() -> None:
    with pytest.raises(MissingToolNameError):
        parse('{"tool": 42, "args": {}}')


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('{"tool": "a", "query": "x"}', 'put the arguments under "args"'),
        ('{"tool": "a", "name": "b"}', 'both "tool"'),
        ('{"tool": "a", "args": {}, "arguments": {}}', 'both "args" and "arguments"'),
        ('{"tool": "a", "args": [1, 2]}', "must be an object of named arguments"),
        ('{"tool": "a", "arguments": "not json"}', "is a string that is not a JSON object"),
        ('[{"tool": "a"}, "b"]', "expected a call object"),
    ],
)
def test_malformed_calls_are_not_guessed(text: str, fragment: str) -> None:
    with pytest.raises(InvalidJSONError) as raised:
        parse(text)
    assert fragment in raised.value.model_message


def test_errors_are_parse_errors_located_in_the_section() -> None:
    chain = JSONToolChain(section_name="act")
    with pytest.raises(ParseError) as raised:
        chain.parse("{")
    assert raised.value.location.section == "act"


# --------------------------------------------------------------------------- the scanner


def test_scanner_reports_nested_spans_and_unclosed_openers() -> None:
    found = scan('a { b {"k": "}"} c')
    assert [(s.start, s.end) for s in found.spans] == [(6, 16)]
    assert found.unclosed == (2,)
    assert found.open_string is None


@pytest.mark.parametrize("pattern", ["{{[", "{'a': '", "}{", '{"a": [', '{"a": "b", ', "x { y "])
def test_scanner_is_linear_on_adversarial_input(pattern: str) -> None:
    def find(text: str) -> None:
        with contextlib.suppress(ParseError):
            find_json_values(text)

    # 10x the input: about 10x the steps; quadratic work is about 100x. Steps are counted, so
    # 3,000 characters (16,000 to 66,000 steps) show the growth as well as more would.
    assert_linear(lambda size: pattern * (size // len(pattern)), find, size=3_000, label=pattern)


# --------------------------------------------------------------------------- properties

_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs"), blacklist_characters="\\"),
    max_size=12,
)
_SCALARS = st.none() | st.booleans() | st.integers(-(10**6), 10**6) | _TEXT
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=8,
)
_CALLS = st.lists(
    st.tuples(
        st.from_regex(r"[a-z_][a-z0-9_]{0,10}", fullmatch=True),
        st.dictionaries(_TEXT, _VALUES, max_size=4),
    ),
    min_size=1,
    max_size=3,
)


def _expected(calls: list[tuple[str, dict[str, object]]]) -> list[ToolCall]:
    return [ToolCall(name, args, f"call_{i}") for i, (name, args) in enumerate(calls)]


@profile_examples(150)
@given(_CALLS)
def test_any_json_call_list_reads_back_exactly(calls: list[tuple[str, dict[str, object]]]) -> None:
    objects = [{"tool": name, "args": args} for name, args in calls]
    assert parse(json.dumps(objects)) == _expected(calls)
    fenced = f"Sure, here you go:\n```json\n{json.dumps(objects, indent=2)}\n```\nDone!"
    assert parse(fenced) == _expected(calls)
    one_after_another = "\n".join(json.dumps(obj, ensure_ascii=False) for obj in objects)
    assert parse(one_after_another) == _expected(calls)


@profile_examples(150)
@given(_CALLS)
def test_any_python_literal_call_list_reads_back_exactly(
    calls: list[tuple[str, dict[str, object]]],
) -> None:
    objects = [{"tool": name, "args": args} for name, args in calls]
    assert parse(repr(objects)) == _expected(calls)


@settings(max_examples=60, deadline=None)
@given(_CALLS)
def test_every_cut_of_a_call_is_refused(calls: list[tuple[str, dict[str, object]]]) -> None:
    text = json.dumps([{"tool": name, "args": args} for name, args in calls])
    for end in range(1, len(text)):
        with pytest.raises(TruncatedCallError):
            parse(text[:end])
