"""Call rules: JSON and YAML tool calls limited to the agent's tools and argument schemas."""

from __future__ import annotations

import json
import random

import pytest
import yaml

from gent_core.grammar import GrammarBuilder, check_gbnf, json_calls, yaml_calls
from gent_core.grammar.calls import yaml_key
from gent_core.grammar.match import GrammarMatcher
from gent_core.grammar.sample import sample
from tests.grammar.grammar_doubles import TOOLS


def grammar(kind: str) -> str:
    builder = GrammarBuilder()
    rule = (json_calls if kind == "json" else yaml_calls)(builder, TOOLS)
    text = builder.build(rule).text
    check_gbnf(text)
    return text


@pytest.mark.parametrize("kind", ["json", "yaml"])
def test_sampled_calls_name_a_real_tool_with_valid_arguments(kind: str) -> None:
    text = grammar(kind)
    tools = {tool.name: tool for tool in TOOLS}
    rng = random.Random(11)
    for _ in range(80):
        written = sample(text, rng, max_repeat=2)
        data = json.loads(written) if kind == "json" else yaml.safe_load(written)
        for call in data if isinstance(data, list) else [data]:
            assert set(call) == {"tool", "args"}, written
            tools[call["tool"]].validate_arguments(call["args"] or {})


def test_json_calls_accept_one_object_or_a_list() -> None:
    matcher = GrammarMatcher(grammar("json"))
    one = {"tool": "calculator", "args": {"expression": "2 + 2"}}
    two = [one, {"tool": "search", "args": {"query": "x", "limit": 3}}]
    assert matcher.matches(json.dumps(one))
    assert matcher.matches(json.dumps(two))
    assert matcher.matches(json.dumps(two, indent=2))
    assert matcher.matches('{"tool": "clock", "args": {}}')
    assert not matcher.matches('{"tool": "rm", "args": {}}')
    assert not matcher.matches('{"tool": "calculator", "args": {}}')
    assert not matcher.matches('{"tool": "calculator", "args": {"expression": 2}}')
    assert not matcher.matches('{"tool": "calculator", "args": {"expression": "2", "x": 1}}')
    assert not matcher.matches("[]")


def test_yaml_calls_accept_a_mapping_or_a_block_list() -> None:
    matcher = GrammarMatcher(grammar("yaml"))
    assert matcher.matches('tool: calculator\nargs:\n  expression: "2 + 2"')
    assert matcher.matches(
        '- tool: search\n  args:\n    query: "cats"\n    limit: 2\n- tool: clock\n  args: {}'
    )
    assert matcher.matches('tool: write_note\nargs:\n  meta: {"score": 1.5, "owner": null}')
    assert matcher.matches("tool: write_note\nargs: {}")
    assert not matcher.matches("tool: calculator\nargs:\n  expression: 2 + 2")
    assert not matcher.matches('tool: rm\nargs:\n  path: "/"')


def test_yaml_keys_are_quoted_when_plain_would_change_meaning() -> None:
    assert yaml_key("path") == "path"
    assert yaml_key("yes") == '"yes"'
    assert yaml_key("a key") == '"a key"'
    assert yaml.safe_load(f"{yaml_key('on')}: 1") == {"on": 1}


@pytest.mark.parametrize("kind", ["json", "yaml"])
def test_an_action_holds_at_most_max_calls(kind: str) -> None:
    from gent_core.grammar.calls import MAX_CALLS

    matcher = GrammarMatcher(grammar(kind))
    call = {"tool": "clock", "args": {}}
    if kind == "json":
        assert matcher.matches(json.dumps([call] * MAX_CALLS))
        assert not matcher.matches(json.dumps([call] * (MAX_CALLS + 1)))
    else:
        item = "- tool: clock\n  args: {}"
        assert matcher.matches("\n".join([item] * MAX_CALLS))
        assert not matcher.matches("\n".join([item] * (MAX_CALLS + 1)))
