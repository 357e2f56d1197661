"""Few-shot examples of the raw prompt: drawn from the tools' declared examples, varied, each
answer restating its own observation, every piece written by the agent's components."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from gent_json import JSONToolChain
from gent_markdown import MarkdownFormat
from gent_prompt.base_prompt import (
    ANSWER_THOUGHT,
    NEUTRAL_EXAMPLES,
    FewShotExample,
    default_examples,
    example_from_tool,
    render_examples,
    render_prompt,
)
from gent_xml import XMLFormat
from gent_yaml import YAMLToolChain

from gent_core import TextTermination
from gent_core.formats import TextFormat
from gent_core.grammar import GrammarMatcher, build_agent_grammar
from gent_core.messages import Message
from gent_core.model import OutputStructure
from gent_core.sections import FormattedSection, TextSection
from gent_core.toolchain import ToolCall, ToolChain
from gent_core.tools import Tool, ToolExample, tool


@tool(
    examples=[
        ToolExample("Double 4.", {"n": 4}, 8, "Double 4 is 8."),
        ToolExample("Double 21.", {"n": 21}, 42, "Double 21 is 42."),
        ToolExample("Double 50.", {"n": 50}, 100, "Double 50 is 100."),
    ]
)
def double(n: int) -> int:
    """Double a number."""
    return 2 * n


@tool(
    examples=[
        ToolExample("Weather in Oslo?", {"city": "Oslo"}, {"sky": "snow", "celsius": -3}),
        ToolExample("Weather in Lima?", {"city": "Lima"}, {"sky": "clear", "celsius": 24}),
    ]
)
def weather(city: str) -> dict[str, object]:
    """Tell the weather."""
    return {"sky": "clear", "celsius": 20}


@tool
def echo(text: str) -> str:
    """Echo a text (no examples)."""
    return text


def structure(
    tools: Sequence[Tool], chain: type[ToolChain] = JSONToolChain, fmt: TextFormat | None = None
) -> OutputStructure:
    toolchain = chain(tools)
    sections = [TextSection("thinking", "Reasoning."), toolchain, TextTermination()]
    return OutputStructure(fmt or XMLFormat(), sections, toolchain, sections[-1])  # type: ignore[arg-type]


def test_examples_are_taken_in_turn_from_each_tool() -> None:
    examples = default_examples(structure([double, weather]))
    assert [example.task for example in examples] == ["Double 4.", "Weather in Oslo?", "Double 21."]
    assert [example.calls[0].tool for example in examples] == ["double", "weather", "double"]
    # different values and results: nothing to copy from one example into another
    assert len({str(example.calls[0].args) for example in examples}) == 3
    assert len(set(map(tuple, (example.results for example in examples)))) == 3


def test_the_count_bounds_the_examples() -> None:
    assert len(default_examples(structure([double, weather]), count=5)) == 5
    assert len(default_examples(structure([double]), count=2)) == 2
    assert len(default_examples(structure([double]), count=10)) == 3


def test_results_are_written_by_the_chain_and_answers_restate_them() -> None:
    (json_example,) = default_examples(structure([weather]), count=1)
    assert json_example.results == ['{"sky": "snow", "celsius": -3}']
    # an example without an answer says what the tool returned
    assert json_example.answer == 'The weather tool returned {"sky": "snow", "celsius": -3}.'
    (yaml_example,) = default_examples(structure([weather], YAMLToolChain), count=1)
    assert yaml_example.results == ["sky: snow\ncelsius: -3"]
    assert yaml_example.answer == "The weather tool returned:\nsky: snow\ncelsius: -3"
    for example in default_examples(structure([double])):
        assert example.results[0] in example.answer


def test_tools_without_examples_get_examples_of_made_up_tools() -> None:
    """No value of a schema is shown (a small model copies it as if it were the answer): the
    examples call made-up tools with values taken from their own questions, and show a
    question no tool fits, one about two things (two calls) and one call, last."""
    examples = default_examples(structure([echo]))
    assert examples == list(NEUTRAL_EXAMPLES)
    assert [len(example.calls) for example in examples] == [0, 2, 1]
    for example in examples:
        for call in example.calls:
            assert call.tool != "echo"
            assert all(str(value) in example.task for value in call.args.values())
    assert default_examples(structure([echo, double]))[0].task == "Double 4."


def test_a_made_up_tool_the_agent_has_is_not_shown() -> None:
    @tool(name="mountain_height")
    def height(name: str) -> str:
        """The height of a mountain."""
        return name

    examples = default_examples(structure([echo, height]))
    assert "mountain_height" not in {call.tool for ex in examples for call in ex.calls}
    assert [len(example.calls) for example in examples] == [0, 2]


def test_without_tools_the_example_answers_at_once() -> None:
    (example,) = default_examples(structure([]))
    assert example.calls == () and example.answer


class PickyChain(JSONToolChain):
    """Cannot write calls of the weather tool."""

    def format_calls(self, calls: Sequence[ToolCall]) -> str:
        if any(call.tool == "weather" for call in calls):
            raise ValueError("cannot write it")
        return super().format_calls(calls)


def test_an_example_the_chain_cannot_write_is_skipped() -> None:
    examples = default_examples(structure([double, weather], PickyChain))
    assert [example.calls[0].tool for example in examples] == ["double", "double", "double"]


def test_example_from_tool_uses_the_declared_answer() -> None:
    chain = JSONToolChain([double])
    example = example_from_tool(chain, double, double.examples[1])
    assert example == FewShotExample(
        "Double 21.",
        [ToolCall("double", {"n": 21}, "call_0")],
        ["42"],
        "Double 21 is 42.",
        ("I will use the double tool.", "The double tool returned 42."),
    )


def test_a_short_result_is_restated_before_the_answer_and_a_long_one_is_not() -> None:
    chain = JSONToolChain([weather])
    short = example_from_tool(chain, weather, weather.examples[0])
    assert short.results == ['{"sky": "snow", "celsius": -3}']
    assert short.thoughts[1] == 'The weather tool returned {"sky": "snow", "celsius": -3}.'
    long = ToolExample("Weather in Lima?", {"city": "Lima"}, {"sky": "clear " * 10})
    assert example_from_tool(chain, weather, long).thoughts[1] == ANSWER_THOUGHT


@pytest.mark.parametrize("fmt", [XMLFormat(), MarkdownFormat()], ids=["xml", "markdown"])
@pytest.mark.parametrize("chain", [JSONToolChain, YAMLToolChain], ids=["json", "yaml"])
def test_every_example_step_parses_and_matches_the_grammar(
    fmt: TextFormat, chain: type[ToolChain]
) -> None:
    shape = structure([double, weather], chain, fmt)
    examples = default_examples(shape)
    text = render_examples(shape, examples)
    parsed = fmt.parse(text, [TextSection("task", "The task."), *shape.sections])
    names = [section.name for section in parsed.sections]
    assert names == ["task", "thinking", "action", "thinking", "answer"] * 3
    assert [section.content for section in parsed.sections[::5]] == [e.task for e in examples]
    matcher = GrammarMatcher(build_agent_grammar(shape).text)
    assert shape.toolchain is not None
    for number, example in enumerate(examples):
        step = parsed.sections[5 * number + 1 : 5 * number + 5]
        calls = shape.toolchain.parse(step[1].content)
        assert [(call.tool, call.args) for call in calls] == [
            (call.tool, call.args) for call in example.calls
        ]
        assert step[3].content.strip() == example.answer.strip()
        for part in (step[:2], step[2:]):
            output = fmt.format_sections([FormattedSection(s.name, s.content) for s in part])
            assert matcher.matches(output), output


def test_the_prompt_labels_several_examples() -> None:
    shape = structure([double, weather])
    prompt = render_prompt([Message.system("S."), Message.user("Double 7.")], shape)
    head, real = prompt.split("Now the real task:")
    assert "Examples of the format:" in head and "Double 7." in real
    for task in ("Double 4.", "Weather in Oslo?", "Double 21."):
        assert f"<task>\n{task}\n</task>" in head
    single = render_prompt([Message.user("Q")], structure([]))
    assert "Example of the format:" in single
