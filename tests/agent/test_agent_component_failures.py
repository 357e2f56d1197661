"""A tool chain or termination that fails on what the model wrote (a plugin bug) never raises
out of ``Agent.run``: the model gets feedback and the run goes on (issue 11: no model output
may raise out of Agent.run)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gent_json import JSONToolChain
from gent_xml.format import XMLFormat

from gent_core._agent import Agent
from gent_core._terminations.text import TextTermination
from gent_core.testing import ScriptedModel
from gent_core.toolchain import ToolCall
from tests.agent.conftest import add


class BrokenChain(JSONToolChain):
    def parse(self, content: str) -> list[ToolCall]:
        if "boom" in content:
            raise KeyError("tool")
        if "garbage" in content:
            return [{"tool": "add"}]  # type: ignore[list-item]  # not a ToolCall
        return super().parse(content)


class BrokenTermination(TextTermination):
    def parse(self, content: str) -> Any:
        if "boom" in content:
            raise IndexError("list index out of range")
        return super().parse(content)


def test_a_chain_that_raises_or_returns_garbage_gives_feedback(tmp_path: Path) -> None:
    model = ScriptedModel(
        [
            "<action>boom</action>",
            "<action>garbage</action>",
            '<action>{"tool": "add", "args": {"a": 1, "b": 2}}</action>',
            "<answer>3</answer>",
        ]
    )
    agent = Agent(model, XMLFormat(), BrokenChain(), tools=[add], working_directory=tmp_path)
    result = agent.run_sync("q")
    assert result.ok and result.answer == "3"
    first, second = result.steps[0], result.steps[1]
    assert first.outcome == second.outcome == "feedback"
    assert "could not be read" in (first.feedback or "")
    assert "KeyError" in (first.feedback or "")
    assert "not a list of tool calls" in (second.feedback or "")
    assert result.steps[2].calls[0].output == 3


def test_a_termination_that_raises_gives_feedback(tmp_path: Path) -> None:
    model = ScriptedModel(["<answer>boom</answer>", "<answer>fine</answer>"])
    agent = Agent(
        model, XMLFormat(), JSONToolChain(), BrokenTermination(), working_directory=tmp_path
    )
    result = agent.run_sync("q")
    assert result.ok and result.answer == "fine"
    assert "IndexError: list index out of range" in (result.steps[0].feedback or "")
