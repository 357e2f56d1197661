"""Whole-output grammars for every format x chain combination (with test doubles; the real
plugins are exercised in gent-llamacpp's tests)."""

from __future__ import annotations

import itertools
import json
import random
import zlib
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel

from gent_core.grammar import (
    GrammarBuilder,
    GrammarUnsupportedError,
    build_agent_grammar,
    check_gbnf,
)
from gent_core.grammar.match import GrammarMatcher
from gent_core.grammar.sample import sample
from gent_core.model import OutputStructure
from gent_core.sections import FormattedSection, TextSection
from gent_core.termination import Termination
from gent_core.terminations.text import TextTermination
from gent_core.terminations.typed import JSONTermination
from gent_core.toolchain import ToolCall
from tests.grammar.grammar_doubles import TOOLS, JSONChainDouble, XMLDouble, _Chain, structure
from tests.grammar.grammar_llama_check import llama_accepts


class Answer(BaseModel):
    value: int
    unit: str | None = None


FORMATS = ["xml", "markdown", "brackets"]
CHAINS = ["json", "yaml"]
TERMINATIONS: dict[str, Callable[[], Termination]] = {
    "text": TextTermination,
    "json": lambda: JSONTermination(Answer),
}
COMBINATIONS = list(itertools.product(FORMATS, CHAINS, TERMINATIONS))


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
        content = parsed.sections[1].content
        if names[1] == "action":
            for call in st.toolchain.parse(content):
                tools[call.tool].validate_arguments(call.args)
        else:
            assert st.termination.parse(content) is not None, output
    assert seen == {"action", "answer"}


@pytest.mark.parametrize(("fmt", "chain"), list(itertools.product(["xml", "markdown"], CHAINS)))
def test_canonical_outputs_are_accepted(fmt: str, chain: str) -> None:
    st, text = build(fmt, chain, "text")
    matcher = GrammarMatcher(text)
    if chain == "json":
        call = json.dumps({"tool": "search", "args": {"query": "cats", "limit": 2}})
    else:
        call = 'tool: search\nargs:\n  query: "cats"\n  limit: 2'
    action = st.format.format_sections(
        [
            FormattedSection("thinking", "I will search.\nTwo lines."),
            FormattedSection("action", call),
        ]
    )
    answer = st.format.format_sections(
        [FormattedSection("thinking", "Done."), FormattedSection("answer", "Cats are 3 < 4 great.")]
    )
    assert matcher.matches(action), action
    assert matcher.matches(answer), answer
    assert not matcher.matches(st.format.format_section("answer", "no thinking first"))
    bad_tool = action.replace('"search"', '"delete"').replace("tool: search", "tool: delete")
    assert not matcher.matches(bad_tool)


def test_free_text_cannot_open_or_close_a_section() -> None:
    _, xml = build("xml", "json", "text")
    matcher = GrammarMatcher(xml)
    assert not matcher.matches("<thinking>\nI </thinking> x\n</thinking>\n<answer>\nA\n</answer>")
    assert not matcher.matches("<thinking>\nsee <answer>\n</thinking>\n<answer>\nA\n</answer>")
    _, markdown = build("markdown", "json", "text")
    matcher = GrammarMatcher(markdown)
    assert matcher.matches("# Thinking\nA #tag here\n\n# Answer\nB")
    assert not matcher.matches("# Thinking\nA\n# Answer\nB\n\n# Answer\nC")
    assert not matcher.matches("# Thinking\n```\ncode\n\n# Answer\nB")


def test_json_termination_constrains_the_answer_to_its_schema() -> None:
    st, text = build("xml", "json", "json")
    matcher = GrammarMatcher(text)
    good = st.format.format_sections(
        [
            FormattedSection("thinking", "ok"),
            FormattedSection("answer", '{"value": 3, "unit": "m"}'),
        ]
    )
    assert matcher.matches(good)
    assert not matcher.matches(good.replace('"value": 3', '"value": "3"'))


def test_a_chain_without_tools_leaves_only_the_answer() -> None:
    st = structure("xml", "json", tools=[])
    matcher = GrammarMatcher(build_agent_grammar(st).text)
    assert matcher.matches("<thinking>\nx\n</thinking>\n<answer>\ny\n</answer>")
    assert not matcher.matches("<thinking>\nx\n</thinking>\n<action>\n{}\n</action>")


class HookedFormat(XMLDouble):
    name = "hooked"

    def grammar_section(self, builder: GrammarBuilder, name: str, body: str) -> str | None:
        return f'"[" {builder.literal(name)} "]" {body}'

    def grammar_text(self, builder: GrammarBuilder) -> str | None:
        return "[a-z]+"


class HookedChain(_Chain):
    def parse(self, content: str) -> list[ToolCall]:
        return [ToolCall(content)]

    def grammar_calls(self, builder: GrammarBuilder) -> str | None:
        return " | ".join(builder.literal(tool.name) for tool in self.tools)


class HookedTermination(TextTermination):
    def grammar_answer(self, builder: GrammarBuilder) -> str | None:
        return '"yes" | "no"'


def test_components_can_supply_their_own_rules() -> None:
    chain = HookedChain(TOOLS)
    term = HookedTermination()
    st = OutputStructure(HookedFormat(), [TextSection("thinking"), chain, term], chain, term)
    matcher = GrammarMatcher(build_agent_grammar(st).text)
    assert matcher.matches("[thinking]abc\n[action]clock")
    assert matcher.matches("[thinking]abc\n\n[answer]no")
    assert not matcher.matches("[thinking]abc\n[answer]maybe")


def test_unknown_call_syntax_and_empty_structures_are_reported() -> None:
    chain = HookedChain(TOOLS)
    chain.grammar_calls = lambda builder: None  # type: ignore[method-assign]
    term = TextTermination()
    st = OutputStructure(XMLDouble(), [chain, term], chain, term)
    with pytest.raises(GrammarUnsupportedError, match="grammar_calls"):
        build_agent_grammar(st)
    with pytest.raises(GrammarUnsupportedError, match="neither"):
        build_agent_grammar(OutputStructure(XMLDouble(), [TextSection("thinking")]))


def test_a_json_chain_declares_its_syntax_by_package_or_class_name() -> None:
    from gent_core.grammar import chain_syntax

    assert chain_syntax(JSONChainDouble(TOOLS)) == "json"
    chain: Any = HookedChain(TOOLS)
    assert chain_syntax(chain) is None
    chain.syntax = "yaml"
    assert chain_syntax(chain) == "yaml"


def test_checked_agent_grammar_returns_a_checked_grammar_or_warns(
    caplog: pytest.LogCaptureFixture,
) -> None:
    import dataclasses
    import logging

    from gent_core.grammar import check_gbnf, checked_agent_grammar

    logger = logging.getLogger("gent.test")
    good = checked_agent_grammar(structure("xml", "json"), logger)
    assert good is not None
    check_gbnf(good)

    class BrokenText(XMLDouble):
        def grammar_text(self, builder: Any) -> str | None:
            return '"unterminated'

    broken = dataclasses.replace(structure("xml", "json"), format=BrokenText())
    with caplog.at_level(logging.WARNING, logger="gent.test"):
        assert checked_agent_grammar(broken, logger) is None
    assert "no grammar for this agent, generating unconstrained" in caplog.text
