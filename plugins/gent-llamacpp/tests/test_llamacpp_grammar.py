"""Grammars built from the real format and chain plugins: valid for llama.cpp, and every output
they allow is read back by the real format, tool chain and termination."""

from __future__ import annotations

import itertools
import random
import zlib

import pytest
from llamacpp_helpers import CHAINS, FORMATS, TOOLS, Answer, llama_accepts, make_structure

from gent_core import JSONTermination
from gent_core.grammar import GrammarMatcher, build_agent_grammar, check_gbnf, sample
from gent_core.toolchain import ToolCall

COMBINATIONS = list(itertools.product(FORMATS, CHAINS, ["text", "json"]))


def structure_for(fmt: str, chain: str, term: str):  # type: ignore[no-untyped-def]
    termination = JSONTermination(Answer) if term == "json" else None
    return make_structure(fmt, chain, termination)


@pytest.mark.llama  # llama-cpp-python's own grammar parser
def test_llama_cpp_parses_the_grammar_of_every_combination() -> None:
    grammars = []
    for combo in COMBINATIONS:
        text = build_agent_grammar(structure_for(*combo)).text
        check_gbnf(text)
        grammars.append(text)
    assert llama_accepts(grammars) == [True] * len(grammars)


@pytest.mark.parametrize(("fmt", "chain", "term"), COMBINATIONS)
def test_every_output_the_grammar_allows_parses(fmt: str, chain: str, term: str) -> None:
    structure = structure_for(fmt, chain, term)
    assert structure.toolchain is not None and structure.termination is not None
    grammar = build_agent_grammar(structure).text
    tools = {tool.name: tool for tool in TOOLS}
    rng = random.Random(zlib.crc32(f"{fmt}{chain}{term}".encode()))
    endings = set()
    for _ in range(40):
        output = sample(grammar, rng, max_repeat=3)
        parsed = structure.format.parse(output, structure.sections)
        names = [section.name for section in parsed]
        assert names in (["thinking", "action"], ["thinking", "answer"]), output
        assert all(section.complete for section in parsed), output
        endings.add(names[1])
        content = parsed.sections[1].untrimmed
        if names[1] == "action":
            calls = structure.toolchain.parse(content)
            assert calls, output
            for call in calls:
                tools[call.tool].validate_arguments(call.args)
        else:
            assert structure.termination.parse(content) is not None, output
    assert endings == {"action", "answer"}


@pytest.mark.parametrize(("fmt", "chain"), list(itertools.product(FORMATS, CHAINS)))
def test_calls_written_for_the_few_shot_prompt_match_the_grammar(fmt: str, chain: str) -> None:
    structure = make_structure(fmt, chain)
    assert structure.toolchain is not None
    calls = [
        ToolCall("search", {"query": "cats", "limit": 2}),
        ToolCall("plot", {"points": [{"x": 1, "y": 2.5}]}),
    ]
    for chosen in (calls[:1], calls, structure.toolchain.example_calls()):
        written = structure.toolchain.format_calls(chosen)
        parsed = structure.toolchain.parse(written)
        assert [(call.tool, call.args) for call in parsed] == [
            (call.tool, call.args) for call in chosen
        ]
        text = "\n".join(
            [
                structure.format.format_section("thinking", "I will search."),
                structure.format.format_section(structure.toolchain.name, written),
            ]
        )
        assert GrammarMatcher(build_agent_grammar(structure).text).matches(text), text
