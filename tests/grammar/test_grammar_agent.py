"""Whole-output grammars, put together from the components' own grammar methods (with test
doubles that know nothing of the shipped plugins; the real plugins are exercised by their own
conformance tests and gent-llamacpp's tests)."""

from __future__ import annotations

import itertools
import json
import random
import re
import zlib
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel

from gent_core._grammar import (
    GrammarBuilder,
    GrammarUnsupportedError,
    agent_grammar,
    build_agent_grammar,
    check_gbnf,
)
from gent_core._grammar.match import GrammarMatcher
from gent_core._grammar.sample import sample
from gent_core._terminations.text import TextTermination
from gent_core._terminations.typed import JSONTermination
from gent_core.model import OutputStructure
from gent_core.sections import FormattedSection, TextSection
from gent_core.termination import Termination
from gent_core.toolchain import ToolCall
from tests.grammar.grammar_doubles import (
    TOOLS,
    LinesChainDouble,
    TagDouble,
    structure,
)
from tests.grammar.grammar_llama_check import llama_accepts


class Answer(BaseModel):
    value: int
    unit: str | None = None


FORMATS = ["tags", "brackets", "headers"]
TERMINATIONS: dict[str, Callable[[], Termination]] = {
    "text": TextTermination,
    "json": lambda: JSONTermination(Answer),
}
COMBINATIONS = list(itertools.product(FORMATS, ["lines", "free"], TERMINATIONS))


def build(fmt: str, chain: str, term: str) -> tuple[OutputStructure, str]:
    st = structure(fmt, chain, TERMINATIONS[term]())
    text = build_agent_grammar(st).text
    check_gbnf(text)
    return st, text


@pytest.mark.llama
def test_llama_cpp_accepts_the_grammar_of_every_combination() -> None:
    grammars = [build(*combo)[1] for combo in COMBINATIONS]
    assert llama_accepts(grammars) == [True] * len(grammars)


@pytest.mark.parametrize(("fmt", "chain", "term"), COMBINATIONS)
def test_every_sampled_output_parses_into_thinking_then_action_or_answer(
    fmt: str, chain: str, term: str
) -> None:
    st, text = build(fmt, chain, term)
    assert st.toolchain is not None and st.termination is not None
    tools = {tool.name: tool for tool in TOOLS}
    rng = random.Random(zlib.crc32(f"{fmt}-{chain}-{term}".encode()))
    seen = set()
    for _ in range(40):
        output = sample(text, rng, max_repeat=3)
        parsed = st.format.parse(output, st.sections)
        names = [section.name for section in parsed]
        assert names in (["thinking", "action"], ["thinking", "answer"]), output
        seen.add(names[1])
        section = parsed.sections[1]
        if names[1] == "answer":
            assert st.termination.parse(section.untrimmed) is not None, output
        elif chain == "lines":  # a constrained action holds valid calls
            for call in st.toolchain.parse(section.untrimmed):
                tools[call.tool].validate_arguments(call.args)
    assert seen == {"action", "answer"}


@pytest.mark.parametrize("fmt", FORMATS)
def test_outputs_written_by_the_components_are_accepted(fmt: str) -> None:
    st, text = build(fmt, "lines", "text")
    assert st.toolchain is not None
    matcher = GrammarMatcher(text)
    calls = st.toolchain.format_calls(st.toolchain.example_calls())
    action = st.format.format_sections(
        [
            FormattedSection("thinking", "I will search.\nTwo lines."),
            FormattedSection("action", calls),
        ]
    )
    answer = st.format.format_sections(
        [FormattedSection("thinking", "Done."), FormattedSection("answer", "Cats are 3 < 4 great.")]
    )
    assert matcher.matches(action), action
    assert matcher.matches(answer), answer
    assert not matcher.matches(st.format.format_section("answer", "no thinking first"))
    bad_tool = action.replace('"calculator"', '"delete"')
    assert not matcher.matches(bad_tool)


def test_conservative_free_text_cannot_open_or_close_a_section() -> None:
    _, text = build("tags", "lines", "text")
    matcher = GrammarMatcher(text)
    assert matcher.matches("<thinking>\na < b, <b>bold\n</thinking>\n<answer>\nA\n</answer>")
    assert not matcher.matches("<thinking>\nI </thinking> x\n</thinking>\n<answer>\nA\n</answer>")
    assert not matcher.matches("<thinking>\nsee <Answer>\n</thinking>\n<answer>\nA\n</answer>")
    assert not matcher.matches("<thinking>\n  \n</thinking>\n<answer>\nA\n</answer>")  # blank


def test_strings_in_calls_never_hold_what_would_close_the_section() -> None:
    st, text = build("tags", "lines", "text")
    matcher = GrammarMatcher(text)
    call = '{"tool": "calculator", "args": {"expression": "EXPR"}}'

    def output(expression: str) -> str:
        action = call.replace("EXPR", expression)
        return f"<thinking>\nx\n</thinking>\n<action>\n{action}\n</action>"

    assert matcher.matches(output("1 < 2"))
    assert not matcher.matches(output("see </action> here"))
    assert not matcher.matches(output("see </ACTION> here"))
    rng = random.Random(3)
    for _ in range(200):
        written = sample(text, rng, max_repeat=4)
        action = st.format.parse(written, st.sections).sections[1].content
        for string in re.findall(r'"((?:[^"\\]|\\.)*)"', action):
            assert "</" not in string, written


def test_a_chain_without_a_grammar_leaves_its_section_unconstrained_and_says_so() -> None:
    st = structure("tags", "free")
    result = agent_grammar(st)
    explained = dict(line[2:].split(": ", 1) for line in result.explain())
    assert explained["action"].startswith("unconstrained: tool chain NoGrammarChainDouble")
    assert "grammar_calls returned None" in explained["action"]
    assert explained["thinking"].startswith("free text, conservative: format 'tags'")
    assert [part.constrained for part in result.sections] == [True, False, True]
    matcher = GrammarMatcher(result.text)
    assert matcher.matches("<thinking>\nx\n</thinking>\n<action>\nanything (not JSON)\n</action>")
    assert not matcher.matches("<thinking>\nx\n</thinking>\n<action>\nx </action>\n</action>")


def test_a_section_that_ends_implicitly_may_be_followed_by_a_stop_sequence() -> None:
    """Without a closing delimiter, the model's way out of the action is the observation
    header its stop sequence catches; the grammar allows it rather than forcing more calls."""
    st = structure("headers", "lines")
    matcher = GrammarMatcher(build_agent_grammar(st).text)
    action = '== thinking\nx\n== action\n{"tool": "clock", "args": {}}'
    assert matcher.matches(action)
    assert matcher.matches(action + "\n== observation")
    assert matcher.matches("== thinking\nx\n== answer\nDone.\n== observation")
    assert not matcher.matches(action + "\n== observation\nmore")
    _, tags = build("tags", "lines", "text")  # closing delimiters: nothing may follow
    assert not GrammarMatcher(tags).matches(
        '<thinking>\nx\n</thinking>\n<action>\n{"tool": "clock", "args": {}}\n</action></action>'
    )


def test_the_explanation_names_the_components_that_constrain_each_section() -> None:
    st = structure("tags", "lines", JSONTermination(Answer))
    lines = agent_grammar(st).explain()
    assert lines[0].startswith("- thinking: free text, conservative")
    assert lines[1] == (
        "- action: calls of the agent's tools with valid arguments, from grammar_calls of "
        "tool chain LinesChainDouble"
    )
    assert lines[2] == "- answer: from grammar_answer of termination JSONTermination"


def test_json_termination_constrains_the_answer_to_its_schema() -> None:
    st, text = build("tags", "lines", "json")
    matcher = GrammarMatcher(text)
    good = st.format.format_sections(
        [
            FormattedSection("thinking", "ok"),
            FormattedSection("answer", '{"value": 3, "unit": "m"}'),
        ]
    )
    assert matcher.matches(good)
    assert not matcher.matches(good.replace('"value": 3', '"value": "3"'))
    assert not matcher.matches(good.replace('"m"', '"</answer>"'))


def test_a_chain_without_tools_leaves_only_the_answer() -> None:
    st = structure("tags", "lines", tools=[])
    matcher = GrammarMatcher(build_agent_grammar(st).text)
    assert matcher.matches("<thinking>\nx\n</thinking>\n<answer>\ny\n</answer>")
    assert not matcher.matches("<thinking>\nx\n</thinking>\n<action>\n{}\n</action>")
    assert [part.section for part in agent_grammar(st).sections] == ["thinking", "answer"]


class HookedFormat(TagDouble):
    name = "hooked"

    def grammar_section(self, builder: GrammarBuilder, name: str, body: str) -> str | None:
        return f'"[" {builder.literal(name)} "]" {body}'

    def grammar_text(self, builder: GrammarBuilder) -> str | None:
        return "[a-z]+"


class HookedChain(LinesChainDouble):
    def parse(self, content: str) -> list[ToolCall]:
        return [ToolCall(content)]

    def grammar_calls(self, builder: GrammarBuilder) -> str | None:
        return " | ".join(builder.literal(tool.name) for tool in self.tools)


class HookedTermination(TextTermination):
    def grammar_answer(self, builder: GrammarBuilder) -> str | None:
        return '"yes" | "no"'


def test_components_supply_their_own_rules() -> None:
    chain = HookedChain(TOOLS)
    term = HookedTermination()
    st = OutputStructure(HookedFormat(), [TextSection("thinking"), chain, term], chain, term)
    matcher = GrammarMatcher(build_agent_grammar(st).text)
    assert matcher.matches("[thinking]abc\n[action]clock")
    assert matcher.matches("[thinking]abc\n\n[answer]no")
    assert not matcher.matches("[thinking]abc\n[answer]maybe")


def test_a_format_without_a_section_rule_and_empty_structures_are_reported() -> None:
    class Opaque(TagDouble):
        def grammar_section(self, builder: GrammarBuilder, name: str, body: str) -> str | None:
            return None

    with pytest.raises(GrammarUnsupportedError, match="offers no grammar for section"):
        build_agent_grammar(structure("tags", "lines", text_format=Opaque()))
    with pytest.raises(GrammarUnsupportedError, match="neither"):
        build_agent_grammar(OutputStructure(TagDouble(), [TextSection("thinking")]))


def test_a_format_that_rewrites_content_cannot_be_delimited() -> None:
    class Backwards(TagDouble):
        def format_section(self, name: str, content: str, *, attributes: Any = None) -> str:
            return f"<{name}>{content[::-1]}</{name}>"

    with pytest.raises(GrammarUnsupportedError, match="verbatim"):
        build_agent_grammar(structure("tags", "lines", text_format=Backwards()))


def test_example_calls_written_by_the_chain_match_its_grammar() -> None:
    st, text = build("brackets", "lines", "text")
    assert st.toolchain is not None
    calls = st.toolchain.example_calls()
    assert [call.tool for call in calls] == ["calculator", "search"]
    assert calls[0].args == {"expression": "6 * 7"}
    written = st.format.format_sections(
        [
            FormattedSection("thinking", "go"),
            FormattedSection("action", st.toolchain.format_calls(calls)),
        ]
    )
    assert GrammarMatcher(text).matches(written), written
    assert json.loads(st.toolchain.format_calls(calls[:1])) == {
        "tool": "calculator",
        "args": {"expression": "6 * 7"},
    }
