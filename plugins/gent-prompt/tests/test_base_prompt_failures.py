"""No example value to copy: once a call has failed, a raw prompt shows only a worked example of
a failed call and its recovery (made-up tools), and a task like none of the declared examples
of an agent whose other tools declare none gets the made-up examples (issue 26)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from gent_json import JSONToolChain
from gent_prompt.base_prompt import (
    NEUTRAL_EXAMPLES,
    RECOVERY_EXAMPLE,
    default_examples,
    render_chat,
    render_prompt,
)
from gent_prompt.example_choice import is_alike
from gent_xml import XMLFormat

from gent_core import Agent, TextTermination
from gent_core.messages import Message
from gent_core.model import OutputStructure
from gent_core.sections import FormattedSection, TextSection
from gent_core.testing import ScriptedModel
from gent_core.toolchain import ToolCall
from gent_core.tools import Tool, ToolExample, tool


@tool(
    examples=[
        ToolExample("Double 4.", {"n": 4}, 8, "Double 4 is 8."),
        ToolExample("Double 21.", {"n": 21}, 42, "Double 21 is 42."),
    ]
)
def double(n: int) -> int:
    """Double a number."""
    return 2 * n


@tool
def word_count(text: str) -> int:
    """Count the words of a text (no examples, as a user's own tool)."""
    return len(text.split())


def structure(tools: Sequence[Tool]) -> OutputStructure:
    toolchain = JSONToolChain(tools)
    sections = [TextSection("thinking", "Reasoning."), toolchain, TextTermination()]
    return OutputStructure(XMLFormat(), sections, toolchain, sections[-1])  # type: ignore[arg-type]


TASK = Message.user("Double 7.")
OUTPUT = Message.assistant('<action>\n{"tool": "double", "args": {"n": "seven"}}\n</action>')


def observation(text: str) -> Message:
    return Message.user(f"<observation>\n<double>\n{text}\n</double>\n</observation>")


def examples_part(prompt: str) -> str:
    """The worked examples of a raw prompt (between their label and the real task)."""
    return prompt.split("of the format:", 1)[1].split("Now the real task:", 1)[0]


def test_before_any_failure_the_declared_examples_are_shown() -> None:
    prompt = render_prompt([Message.system("S"), TASK], structure([double]))
    assert "Double 21 is 42." in examples_part(prompt)


def test_after_a_failed_call_no_declared_example_is_shown() -> None:
    failed = observation("Error: Argument 'n': expected an integer, got 'seven'.")
    prompt = render_prompt([Message.system("S"), TASK, OUTPUT, failed], structure([double]))
    shown = examples_part(prompt)
    for value in ("Double 4", "Double 4 is 8.", "42", "Double 21"):
        assert value not in shown
    assert shown.count("<task>") == 1
    assert "Error: no city named 'Danube'." in shown  # the failed try of the recovery example
    assert '{"tool": "river_length", "args": {"name": "Danube"}}' in shown
    assert prompt.endswith(
        "Error: Argument 'n': expected an integer, got 'seven'.\n</double>\n</observation>\n"
    )


def test_a_successful_observation_keeps_the_declared_examples() -> None:
    done = observation("14")
    prompt = render_prompt([Message.system("S"), TASK, OUTPUT, done], structure([double]))
    assert "Double 21 is 42." in examples_part(prompt)


def test_a_native_tool_error_counts_as_a_failed_call() -> None:
    messages = [
        Message.system("S"),
        TASK,
        Message(
            "tool", Message.user("bad n").parts, tool_call_id="c1", name="double", is_error=True
        ),
    ]
    assert "Danube" in examples_part(render_prompt(messages, structure([double])))


def test_a_chat_model_gets_the_recovery_example_after_a_failure_and_is_told_it_is_made_up() -> None:
    failed = observation("Error: Argument 'n': expected an integer, got 'seven'.")
    turns = render_chat([Message.system("S"), TASK, OUTPUT, failed], structure([double]))
    assert turns[1].text == RECOVERY_EXAMPLE.task
    assert "city_population, river_length" in turns[0].text
    assert not any("42" in turn.text for turn in turns)


def test_a_task_like_no_declared_example_gets_the_made_up_examples_when_a_tool_has_none() -> None:
    agent = structure([double, word_count])
    unlike = default_examples(agent, task="How many words are in 'to be or not to be'?")
    assert unlike == [example for example in NEUTRAL_EXAMPLES]
    alike = default_examples(agent, task="Double 7.")
    assert [example.task for example in alike] == ["Double 4.", "Double 21."]


def test_a_task_like_no_example_still_gets_them_when_every_tool_declares_some() -> None:
    assert default_examples(structure([double]), task="How many words are in 'to be'?")


def test_likeness_ignores_function_words_and_reads_numbers_as_one_word() -> None:
    candidates = [(double, example) for example in double.examples]
    assert is_alike("What is 17 + 3?", candidates)  # a number, like every example
    assert not is_alike("How many words are in 'to be or not to be'?", candidates)


@tool(
    examples=[
        ToolExample("Triple 4137.", {"n": 4137}, 12411, "Triple 4137 is 12411."),
        ToolExample("Triple 2903.", {"n": 2903}, 8709, "Triple 2903 is 8709."),
    ]
)
def triple(n: int) -> int:
    """Triple a number."""
    return 3 * n


@pytest.mark.parametrize("fmt", ["xml", "markdown"])
@pytest.mark.parametrize("chain", ["json", "yaml", "pythonic", "natural"])
def test_after_a_failed_call_no_example_value_is_anywhere_in_the_prompt(
    fmt: str, chain: str
) -> None:
    """Not in the worked examples, and not in the system text's call guidance either: the
    guidance shows a made-up tool, so the whole prompt holds no value to give as the result
    the failed call did not give."""
    agent = Agent(ScriptedModel([]), format=fmt, toolchain=chain, tools=[triple])
    values = ["4137", "12411", "2903", "8709"]
    system = agent.system_prompt()
    assert not [value for value in values if value in system]
    task = Message.user("Triple 55.")
    before = render_prompt([Message.system(system), task], agent.structure())
    assert "12411" in before  # the declared examples are the few-shot's before any failure
    assert agent.toolchain is not None
    wrong = agent.toolchain.format_calls([ToolCall("triple", {"n": "fifty-five"}, "call_0")])
    output = Message.assistant(agent.format.format_section(agent.toolchain.name, wrong))
    failed = Message.user(
        agent.format.format_observation(
            [FormattedSection("triple", "Error: Argument 'n': expected an integer.")]
        )
    )
    after = render_prompt([Message.system(system), task, output, failed], agent.structure())
    assert "expected an integer" in after
    assert not [value for value in values if value in after]
