"""The conversation a chat (instruct) model gets (:func:`render_chat`): the system message, the
worked examples as earlier turns, each written by the agent's components, then the task."""

from __future__ import annotations

from gent_json import JSONToolChain
from gent_prompt.base_prompt import default_examples, render_chat
from gent_xml import XMLFormat

from gent_core import TextTermination
from gent_core.grammar import GrammarMatcher, build_agent_grammar
from gent_core.messages import Message
from gent_core.model import OutputStructure
from gent_core.sections import TextSection
from gent_core.tools import Tool, ToolExample, tool


@tool(examples=[ToolExample("Double 4.", {"n": 4}, 8, "Double 4 is 8.")])
def double(n: int) -> int:
    """Double a number."""
    return 2 * n


@tool
def echo(text: str) -> str:
    """Echo a text (no examples)."""
    return text


def structure(*tools: Tool) -> OutputStructure:
    chain = JSONToolChain()
    for one in tools:
        chain.add_tool(one)
    answer = TextTermination()
    return OutputStructure(XMLFormat(), [TextSection("thinking"), chain, answer], chain, answer)


CONVERSATION = [Message.system("You are an agent."), Message.user("Double 21.")]


def test_a_declared_example_becomes_turns_between_the_system_message_and_the_task() -> None:
    shape = structure(double)
    turns = render_chat(CONVERSATION, shape)
    assert [turn.role for turn in turns] == [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
    ]
    assert turns[0].text.startswith("You are an agent.\n\n")
    assert "worked examples" in turns[0].text and "made up" not in turns[0].text
    assert turns[1].text == "Double 4."  # the task as a user writes it, not in a task section
    assert '"tool": "double"' in turns[2].text and '"n": 4' in turns[2].text
    assert turns[3].text.startswith("<observation>") and "8" in turns[3].text
    assert "Double 4 is 8." in turns[4].text
    assert turns[-1].text == "Double 21."
    grammar = GrammarMatcher(build_agent_grammar(shape).text)
    assert grammar.matches(turns[2].text) and grammar.matches(turns[4].text)


def test_made_up_tools_are_named_as_not_the_agents() -> None:
    shape = structure(echo)
    turns = render_chat(CONVERSATION, shape)
    made_up = {call.tool for example in default_examples(shape) for call in example.calls}
    assert made_up and "echo" not in made_up
    for name in made_up:
        assert name in turns[0].text
    assert "made up: call only the tools listed above" in turns[0].text


def test_without_a_structure_few_shot_or_tools_the_conversation_is_unchanged() -> None:
    assert render_chat(CONVERSATION, None) == CONVERSATION
    assert render_chat(CONVERSATION, structure(double), few_shot=False) == CONVERSATION
    assert render_chat(CONVERSATION, structure()) == CONVERSATION


def test_later_steps_keep_the_examples_before_the_whole_conversation() -> None:
    later = [*CONVERSATION, Message.assistant("<thinking>\nx\n</thinking>"), Message.user("obs")]
    turns = render_chat(later, structure(double))
    assert turns[-3:] == later[1:] and turns[-4].role == "assistant"
