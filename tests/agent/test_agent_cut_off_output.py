"""An output the back end reports as cut off (finish reason ``length``) is never acted on,
whatever the format and whether or not the parser saw its sections as closed (issue 11, bug 4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gent_json import JSONToolChain
from gent_markdown.format import MarkdownFormat
from gent_xml.format import XMLFormat

from gent_core._agent import Agent
from gent_core.formats import TextFormat
from gent_core.testing import ScriptedModel
from gent_core.tools import tool

ran: list[str] = []


@tool
def delete_file(path: str) -> str:
    """Delete a file (records the call instead)."""
    ran.append(path)
    return "deleted"


@pytest.fixture(autouse=True)
def clear_calls() -> None:
    ran.clear()


def run(text_format: TextFormat, outputs: list[Any], tmp_path: Path) -> Any:
    model = ScriptedModel(outputs)
    agent = Agent(
        model, text_format, JSONToolChain(), tools=[delete_file], working_directory=tmp_path
    )
    return agent.run_sync("q"), model


MARKDOWN_CALL = '# Action\n{"tool": "delete_file", "args": {"path": "notes/old.txt"}}'


@pytest.mark.parametrize(
    "output",
    [
        MARKDOWN_CALL,  # complete-looking, but the back end says it was cut
        '# Action\n{"tool": "delete_file", "args": {"path": "notes"}}\n\nand the',
        '# Thinking\nok\n# Action\n[{"tool": "delete_file", "args": {"path": "a"}}]',
    ],
)
def test_markdown_call_outside_a_fence_is_not_run_when_cut_off(tmp_path: Path, output: str) -> None:
    result, model = run(MarkdownFormat(), [(output, "length"), "# Answer\ndone"], tmp_path)
    assert ran == []
    first = result.steps[0]
    assert first.outcome == "feedback" and first.calls == []
    assert first.error_kind == "TruncatedOutputError"
    feedback = model.requests[1].messages[-1].text
    assert "was cut off" in feedback and "token limit" in feedback
    assert result.ok  # the run goes on


def test_the_same_output_runs_when_it_was_not_cut_off(tmp_path: Path) -> None:
    result, _ = run(MarkdownFormat(), [MARKDOWN_CALL, "# Answer\ndone"], tmp_path)
    assert ran == ["notes/old.txt"]
    assert result.ok


@pytest.mark.parametrize("reason", ["length", "max_tokens", "MAX_TOKENS"])
def test_a_cut_off_answer_is_not_accepted(tmp_path: Path, reason: str) -> None:
    result, _ = run(
        MarkdownFormat(), [("# Answer\nThe total is 4", reason), "# Answer\n42"], tmp_path
    )
    assert result.answer == "42"
    assert result.steps[0].outcome == "feedback"


def test_xml_output_cut_off_inside_the_action_is_not_run(tmp_path: Path) -> None:
    output = '<action>{"tool": "delete_file", "args": {"path": "x"}}'
    result, _ = run(XMLFormat(), [(output, "length"), "<answer>ok</answer>"], tmp_path)
    assert ran == []
    assert result.steps[0].outcome == "feedback"
