"""The habits of instruct models, end to end: an agent streaming such an output acts on it.

The model is scripted (it drops stop sequences as back ends do); the parts are the shipped
xml and markdown formats, the json chain and the real calculator.
"""

from __future__ import annotations

import pytest
from gent_json import JSONToolChain
from gent_markdown import MarkdownFormat
from gent_tools_basic import calculator
from gent_xml import XMLFormat

from gent_core import Agent
from gent_core.formats import TextFormat
from gent_core.testing import ScriptedModel

CALL = '{"tool": "calculator", "args": {"expression": "17 * 23"}}'


def run(fmt: TextFormat, outputs: list[str | tuple[str, str]]) -> tuple[list[str], object]:
    model = ScriptedModel(outputs)
    agent = Agent(model, fmt, JSONToolChain([calculator]), tools=[calculator])
    result = agent.run_sync("What is 17 * 23?")
    return [step.outcome for step in result.steps], result.answer


@pytest.mark.parametrize(
    "output",
    [
        # the output: the thinking never closed, the action after it
        f'<thinking> Let\'s call the tool "calculator".\n<action>\n{CALL}\n</action>',
        # the same, the model stopped before </action> (end of text)
        f"<thinking>I call it.\n<action>{CALL}",
        # the call in a ```json fence inside the action
        f"<thinking>I call it.\n<action>\n```json\n{CALL}\n```\n</action>",
    ],
)
def test_an_xml_action_after_an_unclosed_thinking_runs(output: str) -> None:
    outcomes, answer = run(XMLFormat(), [output, "<answer>391</answer>"])
    assert outcomes == ["action", "answer"] and answer == "391"


def test_an_answer_left_open_at_a_natural_stop_is_the_answer() -> None:
    outcomes, answer = run(XMLFormat(), ["<thinking>easy</thinking>\n<answer>391"])
    assert outcomes == ["answer"] and answer == "391"


def test_an_answer_after_an_unclosed_thinking_is_the_answer() -> None:
    outcomes, answer = run(XMLFormat(), ["<thinking>17 * 23 is 391.\n<answer>391"])
    assert outcomes == ["answer"] and answer == "391"


def test_a_markdown_action_after_a_fence_never_closed_runs() -> None:
    output = f"# Thinking\nThe plan:\n```\nmultiply\n# Action\n{CALL}\n"
    outcomes, answer = run(MarkdownFormat(), [output, "# Answer\n391"])
    assert outcomes == ["action", "answer"] and answer == "391"


def test_a_call_cut_inside_never_runs() -> None:
    cut = '<thinking>I call it.\n<action>{"tool": "calculator", "args": {"expression": "17'
    outcomes, answer = run(XMLFormat(), [cut, "<answer>391</answer>"])
    assert outcomes == ["feedback", "answer"] and answer == "391"


def test_an_output_cut_by_the_token_limit_never_runs() -> None:
    outcomes, _ = run(
        XMLFormat(), [(f"<thinking>I call it.\n<action>{CALL}", "length"), "<answer>1</answer>"]
    )
    assert outcomes == ["feedback", "answer"]
