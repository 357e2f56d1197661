"""Choosing the few-shot examples for a task: the most alike last, one of every tool."""

from __future__ import annotations

from gent_json import JSONToolChain
from gent_prompt.base_prompt import default_examples, render_prompt
from gent_prompt.example_choice import choose_examples, words
from gent_xml import XMLFormat

from gent_core import TextTermination
from gent_core.messages import Message
from gent_core.model import OutputStructure
from gent_core.sections import TextSection
from gent_core.tools import Tool, ToolExample, tool


@tool(
    examples=[
        ToolExample("What is 12 times 3?", {"expression": "12 * 3"}, 36),
        ToolExample("Add 5 and 9.", {"expression": "5 + 9"}, 14),
        ToolExample("Divide 80 by 4.", {"expression": "80 / 4"}, 20),
    ]
)
def calc(expression: str) -> float:
    """Evaluate arithmetic."""
    return 0.0


@tool(
    examples=[
        ToolExample("What is the weather in Oslo?", {"city": "Oslo"}, "snow"),
        ToolExample("Will it rain in Lima today?", {"city": "Lima"}, "clear"),
    ]
)
def weather(city: str) -> str:
    """Tell the weather forecast of a city."""
    return "clear"


def candidates(*tools: Tool) -> list[tuple[Tool, ToolExample]]:
    return [(each, example) for each in tools for example in each.examples]


def tasks(chosen: list[tuple[Tool, ToolExample]]) -> list[str]:
    return [example.task for _, example in chosen]


def test_words_are_lower_case_and_every_number_is_one_word() -> None:
    assert words("Divide 80 by 4.5, then ADD 1,000!") == {
        "divide",
        "<number>",
        "by",
        "then",
        "add",
    }
    assert words("") == set()


def test_the_most_alike_example_comes_last() -> None:
    chosen = choose_examples("Divide 96 by 8.", candidates(calc, weather), 3)
    assert tasks(chosen)[-1] == "Divide 80 by 4."
    chosen = choose_examples("Will it rain in Paris tomorrow?", candidates(calc, weather), 3)
    assert tasks(chosen)[-1] == "Will it rain in Lima today?"


def test_every_tool_gets_an_example_even_when_another_fits_better() -> None:
    chosen = choose_examples("Add 2 and 2, then divide by 4.", candidates(calc, weather), 3)
    assert {each.name for each, _ in chosen} == {"calc", "weather"}
    assert chosen[0][0].name == "weather"  # the least alike first
    # with room for one, only the best tool's best example
    assert tasks(choose_examples("Add 2 and 2.", candidates(calc, weather), 1)) == ["Add 5 and 9."]


def test_words_every_example_shares_count_for_nothing() -> None:
    # "is" and "what" appear in several examples; "weather" in one tool's text only
    chosen = choose_examples("What is the weather?", candidates(calc, weather), 1)
    assert chosen[0][0].name == "weather"


def test_count_and_empty_input_bounds() -> None:
    assert choose_examples("Add 1 and 2.", candidates(calc, weather), 0) == []
    assert choose_examples("Add 1 and 2.", [], 3) == []
    assert len(choose_examples("Add 1 and 2.", candidates(calc, weather), 99)) == 5


def test_a_task_like_nothing_keeps_one_example_of_each_tool_in_declared_order() -> None:
    chosen = choose_examples("zzz", candidates(calc, weather), 2)
    assert tasks(chosen) == ["What is 12 times 3?", "What is the weather in Oslo?"]


def structure() -> OutputStructure:
    chain = JSONToolChain([calc, weather])
    sections = [TextSection("thinking", "Reasoning."), chain, TextTermination()]
    return OutputStructure(XMLFormat(), sections, chain, sections[-1])  # type: ignore[arg-type]


def test_the_prompt_shows_the_examples_chosen_for_its_task() -> None:
    prompt = render_prompt(
        [Message.system("S"), Message.user("Will it rain in Rome?")], structure()
    )
    last_example = prompt.rindex("<task>\nWill it rain in Lima today?")
    assert last_example > prompt.index("<task>\nWhat is the weather in Oslo?")
    assert prompt.rstrip().endswith("<task>\nWill it rain in Rome?\n</task>")
    # the same examples default_examples gives for that task
    for example in default_examples(structure(), task="Will it rain in Rome?"):
        assert f"<task>\n{example.task}\n</task>" in prompt


def test_an_observation_is_not_taken_for_the_task() -> None:
    observation = "<observation>\n<calc>\n14\n</calc>\n</observation>"
    messages = [Message.system("S"), Message.user("Add 5 and 7."), Message.user(observation)]
    prompt = render_prompt(messages, structure())
    examples = prompt[: prompt.index("Now the real task:")]
    assert examples.rindex("<task>\n") == examples.index("<task>\nAdd 5 and 9.")


SHARED = [ToolExample("Shout hello.", {"text": "hello"}, "HELLO")]


@tool(examples=SHARED)
def shout(text: str) -> str:
    """Upper-case a text."""
    return text.upper()


@tool(examples=SHARED)
def yell(text: str) -> str:
    """Upper-case a text, loudly."""
    return text.upper()


def test_tools_sharing_one_example_object_each_get_their_own_example() -> None:
    chain = JSONToolChain([shout, yell])
    sections = [TextSection("thinking", "Reasoning."), chain, TextTermination()]
    shape = OutputStructure(XMLFormat(), sections, chain, sections[-1])  # type: ignore[arg-type]
    examples = default_examples(shape, task="Shout hello.")
    assert sorted(example.calls[0].tool for example in examples) == ["shout", "yell"]
