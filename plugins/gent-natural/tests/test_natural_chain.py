"""The ``natural`` tool chain: reading and writing tags, guidance, grammar, a whole run."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from gent_natural import plugin
from gent_natural.chain import NaturalToolChain
from gent_natural.tagcalls import read_tag_calls, write_tag_calls
from natural_helpers import TOOLS

from gent_core import Agent
from gent_core.errors import GentError, InvalidJSONError, MissingToolNameError, TruncatedCallError
from gent_core.formats import TextFormat
from gent_core.grammar import GrammarBuilder, GrammarMatcher
from gent_core.guidance import guidance_calls
from gent_core.testing import PluginSandbox, ScriptedModel
from gent_core.toolchain import ToolCall


def test_reads_every_tag_and_ignores_prose_around_them() -> None:
    content = (
        "Two calls:\n"
        '<tool_call name="get_weather">\n```json\n{"city": "Paris"}\n```\n</tool_call>\n'
        '<tool_call>{"name": "now", "arguments": {}}</tool_call>\n'
    )
    assert read_tag_calls(content) == [
        ToolCall("get_weather", {"city": "Paris"}, "call_0"),
        ToolCall("now", {}, "call_1"),
    ]
    assert read_tag_calls("  \n ") == []


@pytest.mark.parametrize(
    ("content", "error", "message"),
    [
        ('<tool_call name="now">{"a": ', TruncatedCallError, "was never closed"),
        (
            '<tool_call name="get_weather">{"city": Paris}</tool_call>',
            InvalidJSONError,
            "Call 1 to 'get_weather' is malformed: the arguments are not valid JSON",
        ),
        (
            '<tool_call>{"city": "Paris"}</tool_call>',
            MissingToolNameError,
            "Call 1 does not name its tool",
        ),
        (
            "I will call get_weather for Paris.",
            InvalidJSONError,
            "No tool call found in the action section",
        ),
        (
            '<tool_call name="f">{"x": ' + "[" * 150 + "]" * 150 + "}</tool_call>",
            InvalidJSONError,
            "nest",
        ),
    ],
)
def test_errors_tell_the_model_what_is_accepted(
    content: str, error: type[GentError], message: str
) -> None:
    with pytest.raises(error) as caught:
        NaturalToolChain(TOOLS).parse(content)
    assert message in caught.value.model_message
    assert '<tool_call name="<tool name>">' in caught.value.model_message or (
        error is TruncatedCallError
    )


def test_format_calls_is_the_inverse_of_parse_even_for_awkward_values() -> None:
    calls = [
        ToolCall("get_weather", {"city": "</tool_call> <![CDATA[ ]]>", "n": [1.5, None]}),
        ToolCall("now", {}),
    ]
    chain = NaturalToolChain(TOOLS)
    written = chain.format_calls(calls)
    assert [(c.tool, c.args) for c in chain.parse(written)] == [(c.tool, c.args) for c in calls]
    assert written.startswith('<tool_call name="get_weather"><![CDATA[\n')
    assert write_tag_calls([ToolCall("now", {"a": 1})], indent=None) == (
        '<tool_call name="now">\n{"a": 1}\n</tool_call>'
    )


def test_guidance_shows_the_syntax_an_example_and_every_tool() -> None:
    """One call, then two in one action; the tools declare no examples, so the calls shown are
    of a made-up tool, said to be one (no schema value a model could copy)."""
    chain = NaturalToolChain(TOOLS)
    calls = guidance_calls(chain)
    assert chain.format_calls(calls[:1]) in chain.guidance
    assert chain.format_calls(calls) in chain.guidance
    assert "(city_population is a made-up tool)" in chain.guidance
    assert '"example city"' not in chain.guidance
    assert "get_weather(city: string" in chain.guidance and "now()" in chain.guidance
    assert "(none)" in NaturalToolChain().guidance


def test_the_grammar_accepts_what_format_calls_writes_and_only_known_tools() -> None:
    chain = NaturalToolChain(TOOLS)
    builder = GrammarBuilder(avoid=["</action>"])
    grammar = builder.build(chain.grammar_calls(builder) or "").text
    matcher = GrammarMatcher(grammar)
    examples = chain.example_calls()
    assert matcher.matches(chain.format_calls(examples))
    assert matcher.matches(NaturalToolChain(TOOLS, indent=None).format_calls(examples))
    assert not matcher.matches(chain.format_calls([ToolCall("rm", {"path": "/"})]))
    assert NaturalToolChain().grammar_calls(GrammarBuilder()) is None


def test_the_chain_is_registered_as_natural(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(plugin, "natural")
    chain = gent_plugins.registry().create("toolchain", "natural", tools=TOOLS, indent=None)
    assert isinstance(chain, NaturalToolChain) and chain.indent is None
    with pytest.raises(ValueError, match="indent must be a whole number"):
        NaturalToolChain(indent="2")  # type: ignore[arg-type]


def test_a_whole_run_with_a_model_writing_tags(tmp_path: Path) -> None:
    sandbox = PluginSandbox()
    sandbox.load_installed()
    xml = sandbox.registry().create("format", "xml")
    assert isinstance(xml, TextFormat)
    model = ScriptedModel(
        [
            "<thinking>Check both.</thinking><action>\n"
            '<tool_call name="get_weather">{"city": "Paris"}</tool_call>\n'
            '<tool_call name="get_weather">{"city": "Rome", "unit": "f"}</tool_call>\n'
            "</action>",
            "<thinking>Done.</thinking><answer>21 in both.</answer>",
        ]
    )
    agent = Agent(model, xml, NaturalToolChain(), tools=TOOLS, working_directory=tmp_path)
    result = asyncio.run(agent.run("Weather in Paris and Rome?"))
    assert result.ok and result.answer == "21 in both."
    assert '<tool_call name="city_population">' in model.requests[0].messages[0].text  # guidance
    observation = model.requests[1].messages[-1].text
    assert '"city": "Paris"' in observation and '"unit": "f"' in observation
