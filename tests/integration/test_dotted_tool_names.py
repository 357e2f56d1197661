"""A tool named like a Python path (``math.factorial``) through every shipped format and tool
chain: listed in the prompt as it is, allowed by the grammar, read back from the model's
output, run, and its result's section named after it. The model sees the name the user wrote.
"""

from __future__ import annotations

import pytest

from gent_core._agent import Agent
from gent_core._grammar import GrammarMatcher, build_agent_grammar
from gent_core._plugins import Registry
from gent_core._terminations.text import TextTermination
from gent_core.sections import FormattedSection
from gent_core.testing import PluginSandbox, ScriptedModel
from gent_core.toolchain import ToolCall
from gent_core.tools import DeclaredTool

FORMATS = ["xml", "markdown"]
CHAINS = ["json", "yaml", "natural", "pythonic"]


@pytest.fixture(scope="module")
def registry() -> Registry:
    sandbox = PluginSandbox()
    sandbox.load_installed()
    return sandbox.registry()


def tools() -> list[DeclaredTool]:
    schema = {
        "type": "object",
        "properties": {"number": {"type": "integer"}},
        "required": ["number"],
    }
    return [
        DeclaredTool("math.factorial", "Factorial of a number.", schema, result=120),
        DeclaredTool("math.gcd.of-two", "Greatest common divisor.", schema, result=5),
    ]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("chain", CHAINS)
def test_a_dotted_tool_name_goes_through_as_written(
    registry: Registry, fmt: str, chain: str
) -> None:
    text_format = registry.create("format", fmt)
    toolchain = registry.create("toolchain", chain)
    calls = [ToolCall("math.factorial", {"number": 5}), ToolCall("math.gcd.of-two", {"number": 3})]
    output = text_format.format_sections(
        [
            FormattedSection("thinking", "I call both."),
            FormattedSection("action", toolchain.format_calls(calls)),
        ]
    )
    answer = text_format.format_sections([FormattedSection("answer", "120 and 5")])
    model = ScriptedModel([output, answer])
    agent = Agent(model, text_format, toolchain, TextTermination(), tools=tools())
    assert "math.factorial" in agent.system_prompt()
    assert "math.gcd.of-two" in agent.system_prompt()
    grammar = build_agent_grammar(agent.structure())
    assert GrammarMatcher(grammar.text).matches(output.rstrip("\n")), output

    result = agent.run_sync("What is 5! and the gcd?")

    assert result.ok, result.message
    first = result.steps[0]
    assert [(c.tool, c.args, c.output) for c in first.calls] == [
        ("math.factorial", {"number": 5}, 120),
        ("math.gcd.of-two", {"number": 3}, 5),
    ]
    observation = text_format.parse(first.followup, [text_format.observation_name])
    inside = observation.sections[0].content
    assert "math.factorial" in inside and "math.gcd.of-two" in inside
