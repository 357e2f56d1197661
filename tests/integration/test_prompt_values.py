"""No placeholder where a value is expected: every call a prompt shows (the chains' guidance,
the few-shot examples) has concrete argument values valid for its tool, for every shipped
format, tool chain and tool; and the examples' answers restate their own observations.

A small model copies what it sees: a ``"<timezone>"`` or ``"example path"`` shown as a value
is sent back as one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from gent_prompt import default_examples, render_examples, render_prompt

from gent_core._agent import Agent
from gent_core._plugins import Registry
from gent_core._terminations.text import TextTermination
from gent_core.messages import Message
from gent_core.sections import TextSection
from gent_core.testing import PluginSandbox, ScriptedModel
from gent_core.toolchain import ToolCall
from gent_core.tools import Tool

FORMATS = ["xml", "markdown"]
CHAINS = ["json", "yaml", "natural", "pythonic"]
TOOLS = [
    "calculator",
    "current_time",
    "read_file",
    "list_dir",
    "search_text",
    "write_file",
    "edit_file",
]
# What a placeholder looks like: <timezone>, {path}, ..., "example query", TODO, your_key.
PLACEHOLDER = re.compile(
    r"^<[^<>]*>$|^\{[^{}]*\}$|\.\.\.|…|^example\b|\bplaceholder\b|\bTODO\b|^your[_ ]|^x+$",
    re.IGNORECASE,
)
# A tag-like placeholder anywhere in the prompt (<path>, <your timezone>); section tags and
# tool names are allowed.
ANGLE = re.compile(r"<(/?)([A-Za-z_][\w ]*)>")


@pytest.fixture(scope="module")
def registry() -> Registry:
    sandbox = PluginSandbox()
    sandbox.load_installed()
    return sandbox.registry()


def make_agent(registry: Registry, fmt: str, chain: str) -> Agent:
    tools: list[Tool] = [registry.create("tool", name) for name in TOOLS]
    return Agent(
        ScriptedModel([]),
        registry.create("format", fmt),
        registry.create("toolchain", chain),
        TextTermination(),
        tools=tools,
    )


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def check_call(agent: Agent, call: ToolCall) -> None:
    assert agent.toolchain is not None
    tool = agent.toolchain.get_tool(call.tool)
    assert tool is not None, f"{call.tool} is not a tool of the agent"
    tool.validate_arguments(call.args)
    for text in strings(call.args):
        assert not PLACEHOLDER.search(text.strip()), f"{call.tool}: placeholder value {text!r}"


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("chain", CHAINS)
def test_every_call_shown_has_concrete_valid_values(
    registry: Registry, fmt: str, chain: str
) -> None:
    agent = make_agent(registry, fmt, chain)
    toolchain = agent.toolchain
    assert toolchain is not None
    structure = agent.structure()
    shown = list(toolchain.example_calls())
    examples = default_examples(structure, count=100)
    assert len(examples) == sum(len(tool.examples) for tool in toolchain.tools)
    for example in examples:
        shown.extend(example.calls)
    for call in shown:
        check_call(agent, call)
    # the calls as the prompt writes them read back to the same values
    text = render_examples(structure, examples)
    sections = [TextSection("task", "The task."), *agent.sections()]
    parsed = agent.format.parse(text, sections)
    actions = [s.untrimmed for s in parsed.sections if s.name == toolchain.name]
    read = [call for action in actions for call in toolchain.parse(action)]
    assert [(call.tool, call.args) for call in read] == [
        (call.tool, call.args) for example in examples for call in example.calls
    ]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("chain", CHAINS)
def test_the_prompt_has_no_tag_like_placeholder(registry: Registry, fmt: str, chain: str) -> None:
    agent = make_agent(registry, fmt, chain)
    prompt = render_prompt(
        [Message.system(agent.system_prompt()), Message.user("What is 2 + 2?")], agent.structure()
    )
    allowed = {section.name for section in agent.sections()} | set(TOOLS)
    allowed |= {"task", agent.format.observation_name, "tool_call"}
    found = {match.group(2) for match in ANGLE.finditer(prompt)} - allowed
    assert not found, f"tag-like placeholders in the prompt: {sorted(found)}"


FUNCTION_WORDS = frozenset({"the", "and", "that", "this", "with", "from", "for", "are", "was"})
"""Words any sentence may hold: no value a model could copy from the wrong observation."""


def tokens(text: str) -> set[str]:
    """Numbers, times, dates, names and words of three letters or more in ``text`` (function
    words left out).
    """
    found = re.findall(r"\d{1,2}:\d\d|[\w./-]{3,}", text)
    return {token.strip(".,;").lower() for token in found} - FUNCTION_WORDS


@pytest.mark.parametrize("chain", CHAINS)
def test_each_answer_restates_its_own_observation(registry: Registry, chain: str) -> None:
    agent = make_agent(registry, "xml", chain)
    examples = default_examples(agent.structure(), count=100)
    for example in examples:
        # The answer says a value of its own observation that its task does not (the
        # result, the time, the line...): what a model must learn to copy...
        own = tokens(example.results[0]) - tokens(example.task)
        answer = tokens(example.answer)
        assert own & answer, f"{example.task!r}: the answer restates nothing of {example.results}"
        # ...and no value that only another example's observation holds.
        for other in examples:
            alien = tokens(other.results[0]) - tokens(example.results[0]) - tokens(example.task)
            assert not (alien & answer), f"{example.task!r} restates {alien & answer}"
