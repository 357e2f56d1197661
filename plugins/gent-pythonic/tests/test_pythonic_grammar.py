"""The pythonic grammar: calls of known tools with valid arguments in Python literal syntax,
as format_calls writes them; every output parses; inside a whole agent's grammar too."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Literal

import pytest
from gent_pythonic import PythonicToolChain
from gent_xml import XMLFormat
from pydantic import BaseModel

from gent_core import TextTermination
from gent_core.grammar import (
    MAX_CALLS,
    GrammarBuilder,
    GrammarMatcher,
    build_agent_grammar,
    check_gbnf,
    sample,
)
from gent_core.model import OutputStructure
from gent_core.sections import Section, TextSection
from gent_core.testing import KIT_TOOLS
from gent_core.toolchain import ToolCall
from gent_core.tools import BaseTool, tool
from gent_core.tools.base import Tool


class Node(BaseModel):
    """A tree node."""

    label: str
    children: list[Node] = []


@tool
def tree(root: Node, strict: bool = False) -> str:
    """Walk a tree."""
    return root.label


@tool
def settings(mode: Literal[True, "auto", None], level: int = 1) -> str:
    """Change settings."""
    return str(mode)


class OddNames(BaseTool):
    """A tool (as an MCP server may serve one) whose argument names are not identifiers."""

    name = "get-file"
    description = "Read a file."
    parameters = {  # noqa: RUF012
        "type": "object",
        "properties": {"file-path": {"type": "string"}, "if": {"type": "integer"}},
        "required": ["file-path"],
        "additionalProperties": False,
    }

    async def run(self, working_directory: Path, **arguments: Any) -> str:
        return str(arguments)


class FreeForm(BaseTool):
    """A tool taking any object of integers."""

    name = "free"
    description = "Take anything."
    parameters = {  # noqa: RUF012
        "type": "object",
        "additionalProperties": {"type": "integer"},
    }

    async def run(self, working_directory: Path, **arguments: Any) -> str:
        return str(arguments)


TOOLS: list[Tool] = [*KIT_TOOLS, tree, settings, OddNames(), FreeForm()]


def grammar(tools: list[Tool], avoid: tuple[str, ...] = ()) -> str:
    builder = GrammarBuilder(avoid=avoid)
    rule = PythonicToolChain(tools).grammar_calls(builder)
    assert rule is not None
    text = builder.build(rule).text
    check_gbnf(text)
    return text


MATCHER = GrammarMatcher(grammar(TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        'calculator(expression="17 * 23")',
        'search(query="cats")',
        'search(query="cats", limit=-3, language="fr")',
        'search(query="cats", language="fr")',
        "clock()",
        'plot(points=[{"x": 1.5, "y": -2e10}], title=None)',
        'plot(points=[], title="a \\"quoted\\" \\u00e9 title")',
        'current_time(timezone="Europe/Paris")',
        "current_time()",
        'tree(root={"label": "a", "children": [{"label": "b"}]}, strict=True)',
        "settings(mode=True)",
        'settings(mode="auto", level=3)',
        "settings(mode=None)",
        'get-file(**{"file-path": "a.txt"}, **{"if": 2})',
        'free(**{"a": 1, "b": 2})',
        "free()",
        'calculator(expression="1")\nclock()\nclock()\nclock()',
    ],
)
def test_the_grammar_accepts_calls_of_known_tools_with_valid_arguments(text: str) -> None:
    assert MATCHER.matches(text), text


@pytest.mark.parametrize(
    "text",
    [
        'rm(path="/")',
        "calculator()",
        "calculator(expression=17)",
        'calculator(expression="1", extra=1)',
        "settings(mode=true)",
        "settings(mode=null)",
        'tree(root={"label": "a"}, strict=false)',
        'plot(points=[{"x": 1, "y": 1e999}])',
        'search(limit=3, query="cats")',
        'calculator(expression="1")\n' * MAX_CALLS + "clock()",
        'calculator(expression=os.system("x"))',
        "calculator(expression='single')",
        'calculator("positional")',
        'get-file(file-path="a.txt")',
    ],
)
def test_the_grammar_refuses_anything_else(text: str) -> None:
    assert not MATCHER.matches(text), text


def test_the_grammar_accepts_what_format_calls_writes() -> None:
    chain = PythonicToolChain(TOOLS)
    calls = [
        ToolCall("get-file", {"if": 1, "file-path": "x"}),
        ToolCall("settings", {"level": 0, "mode": "auto"}),
        ToolCall("tree", {"root": {"label": "r", "children": []}}),
    ]
    written = chain.format_calls(calls)
    assert MATCHER.matches(written), written
    assert [(c.tool, c.args) for c in chain.parse(written)] == [(c.tool, c.args) for c in calls]


def test_every_sampled_output_parses_into_valid_calls() -> None:
    chain = PythonicToolChain(TOOLS)
    known = {tool.name: tool for tool in TOOLS}
    text = grammar(TOOLS)
    rng = random.Random(7)
    seen = set()
    for _ in range(300):
        written = sample(text, rng, max_repeat=3)
        calls = chain.parse(written)
        assert 1 <= len(calls) <= MAX_CALLS, written
        for call in calls:
            known[call.tool].validate_arguments(call.args)
            seen.add(call.tool)
    assert seen == set(known)


def test_strings_never_hold_the_texts_the_format_must_not_see() -> None:
    matcher = GrammarMatcher(grammar(TOOLS, avoid=("</action>",)))
    assert matcher.matches('calculator(expression="a < b / c")')
    assert not matcher.matches('calculator(expression="</action>")')
    assert not matcher.matches('calculator(expression="</ACTION>")')


def test_without_tools_there_is_no_grammar() -> None:
    assert PythonicToolChain([]).grammar_calls(GrammarBuilder()) is None


# --------------------------------------------------------------------------- whole agent


def structure(tools: list[Tool]) -> OutputStructure:
    chain = PythonicToolChain(tools)
    termination = TextTermination()
    sections: list[Section] = [TextSection("thinking", "Think."), chain, termination]
    return OutputStructure(XMLFormat(), sections, chain, termination)


def test_the_agent_grammar_holds_the_chains_calls() -> None:
    text = build_agent_grammar(structure(list(KIT_TOOLS))).text
    check_gbnf(text)
    matcher = GrammarMatcher(text)
    assert matcher.matches(
        '<thinking>\nI multiply.\n</thinking>\n<action>\ncalculator(expression="17 * 23")\n'
        "</action>"
    )
    assert matcher.matches("<thinking>\nDone.\n</thinking>\n<answer>\n391\n</answer>")
    assert not matcher.matches(
        "<thinking>\nI multiply.\n</thinking>\n<action>\ncalculator(expression=17 * 23)\n</action>"
    )
