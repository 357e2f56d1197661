"""The tools' worked examples (shown in few-shot prompts) are true: each result is what the
tool returns for the example's arguments, and each answer restates it."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from gent_tools_basic.calculator_tool import calculator
from gent_tools_basic.clock import current_time

from gent_core.testing import run_tool_sync
from gent_core.tools import ToolExample


@pytest.mark.parametrize("example", calculator.examples, ids=lambda example: example.task)
def test_calculator_examples_give_what_the_calculator_returns(example: ToolExample) -> None:
    result = run_tool_sync(calculator, dict(example.arguments))
    assert result.output == example.result
    assert type(result.output) is type(example.result)
    assert example.answer is not None and str(example.result) in example.answer


@pytest.mark.parametrize("example", current_time.examples, ids=lambda example: example.task)
def test_clock_examples_are_what_the_tool_returns_at_their_moment(example: ToolExample) -> None:
    live = run_tool_sync(current_time, dict(example.arguments)).output
    result = example.result
    assert set(result) == set(live)  # the same shape as a real reading
    zone = example.arguments["timezone"]
    assert result["timezone"] == live["timezone"] == zone
    moment = datetime.fromisoformat(result["datetime"])
    # the offset is the zone's at that moment, the weekday that date's
    assert moment.utcoffset() == moment.astimezone(ZoneInfo(zone)).utcoffset()
    assert result["weekday"] == f"{moment:%A}"
    assert example.answer is not None
    for stated in (f"{moment:%H:%M}", result["weekday"], result["datetime"][:10]):
        assert stated in example.answer


def test_examples_differ_so_none_can_be_copied_for_another() -> None:
    for tool in (calculator, current_time):
        assert len(tool.examples) >= 3
        tasks = {example.task for example in tool.examples}
        arguments = {str(dict(example.arguments)) for example in tool.examples}
        results = {str(example.result) for example in tool.examples}
        assert len(tasks) == len(arguments) == len(results) == len(tool.examples)
    weekdays = {example.result["weekday"] for example in current_time.examples}
    assert len(weekdays) == len(current_time.examples)
