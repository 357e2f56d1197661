"""The natural chain refuses a ``<tool_call>`` naming its tool twice or holding another
``<tool_call>``, telling the model what is wrong, instead of taking the last name or dropping
the inner call (issue 17, item 8)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from gent_natural.chain import NaturalToolChain
from natural_helpers import TOOLS

from gent_core import Agent, RunResult
from gent_core.formats import TextFormat
from gent_core.testing import PluginSandbox, ScriptedModel


def run(first_output: str, tmp_path: Path) -> tuple[RunResult, ScriptedModel]:
    sandbox = PluginSandbox()
    sandbox.load_installed()
    xml = sandbox.registry().create("format", "xml")
    assert isinstance(xml, TextFormat)
    model = ScriptedModel([first_output, "<thinking>Fixed.</thinking><answer>done</answer>"])
    agent = Agent(model, xml, NaturalToolChain(), tools=TOOLS, working_directory=tmp_path)
    return asyncio.run(agent.run("Weather?")), model


@pytest.mark.parametrize(
    ("action", "told"),
    [
        (
            '<tool_call name="get_weather" name="now">{"city": "Paris"}</tool_call>',
            'Call 1 is malformed: the <tool_call> tag names its tool 2 times (name="get_weather" '
            'and name="now"); give one name attribute per tag, one tag per call.',
        ),
        (
            '<tool_call name="now" name="now">{}</tool_call>',
            'Call 1 is malformed: the <tool_call> tag names its tool 2 times (name="now" and '
            'name="now")',
        ),
        (
            '<tool_call name="now">\n<tool_call name="get_weather">{"city": "Paris"}</tool_call>'
            "\n</tool_call>",
            "Call 1 is malformed: the <tool_call> holds another <tool_call> tag; write each call "
            "as a tag of its own, one after the other, never one inside another.",
        ),
        (
            '<tool_call name="get_weather">{"city": "Paris"}</tool_call>\n'
            '<tool_call name="get_weather">{"city": <tool_call name="now">{}</tool_call>}'
            "</tool_call>",
            "Call 2 is malformed: the <tool_call> holds another <tool_call> tag",
        ),
    ],
)
def test_a_malformed_tag_is_an_error_for_the_model_and_nothing_runs(
    tmp_path: Path, action: str, told: str
) -> None:
    result, model = run(f"<thinking>Call.</thinking><action>\n{action}\n</action>", tmp_path)

    assert result.ok and result.answer == "done"
    first = result.steps[0]
    assert first.outcome == "feedback"
    assert first.calls == []  # neither the last name nor the outer call ran
    feedback = model.requests[1].messages[-1].text
    assert told in feedback
    assert '<tool_call name="<tool name>">' in feedback  # and the accepted form


def test_a_tag_written_inside_a_json_string_is_text(tmp_path: Path) -> None:
    action = '<tool_call name="get_weather">{"city": "<tool_call> town"}</tool_call>'
    result, _ = run(f"<thinking>Call.</thinking><action>\n{action}\n</action>", tmp_path)
    assert result.ok
    first = result.steps[0]
    assert first.outcome == "action"
    assert [call.args for call in first.calls] == [{"city": "<tool_call> town"}]
