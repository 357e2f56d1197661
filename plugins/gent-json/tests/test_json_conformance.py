"""The json tool chain against the ToolChain contract (conformance kit), and its grammar."""

from __future__ import annotations

import json
from collections.abc import Sequence

from gent_json import JSONToolChain

from gent_core.grammar import MAX_CALLS, GrammarBuilder, GrammarMatcher, check_gbnf
from gent_core.testing import KIT_TOOLS, ChainConformance
from gent_core.tools.base import Tool


class TestJSONToolChain(ChainConformance):
    """Round trip, truncation, documented errors, examples, guidance and grammar."""

    def make_chain(self, tools: Sequence[Tool]) -> JSONToolChain:
        return JSONToolChain(tools)


def grammar() -> GrammarMatcher:
    builder = GrammarBuilder()
    rule = JSONToolChain(KIT_TOOLS).grammar_calls(builder)
    text = builder.build(rule).text
    check_gbnf(text)
    return GrammarMatcher(text)


def test_calls_are_one_object_or_a_list_of_known_tools_with_valid_arguments() -> None:
    matcher = grammar()
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


def test_an_action_holds_at_most_max_calls() -> None:
    matcher = grammar()
    call = {"tool": "clock", "args": {}}
    assert matcher.matches(json.dumps([call] * MAX_CALLS))
    assert not matcher.matches(json.dumps([call] * (MAX_CALLS + 1)))


def test_numbers_stay_finite_and_lists_bounded() -> None:
    matcher = grammar()
    point = {"x": 1.5, "y": -2e10}
    assert matcher.matches(json.dumps({"tool": "plot", "args": {"points": [point] * 8}}))
    assert not matcher.matches(json.dumps({"tool": "plot", "args": {"points": [point] * 9}}))
    assert not matcher.matches('{"tool": "plot", "args": {"points": [{"x": 1e999, "y": 0}]}}')


def test_format_calls_writes_one_line_objects() -> None:
    chain = JSONToolChain(KIT_TOOLS)
    calls = chain.example_calls()
    assert chain.format_calls(calls[:1]) == (
        '{"tool": "calculator", "args": {"expression": "6 * 7"}}'
    )
    assert json.loads(chain.format_calls(calls)) == [
        {"tool": call.tool, "args": call.args} for call in calls
    ]
