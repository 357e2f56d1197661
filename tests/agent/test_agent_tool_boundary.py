"""Whole runs: a tool that exits, raises a bare BaseException or returns a malformed result
never ends ``Agent.run``; an action with too many calls runs none (issue 11, bugs 10 and 17,
calls per action)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from gent_core._agent import Agent
from gent_core.context import Limits
from gent_core.testing import ScriptedModel
from gent_core.tools import ToolResult, tool

MakeAgent = Callable[..., Agent]


def action(*calls: tuple[str, dict[str, Any]]) -> str:
    body = [{"tool": name, "args": args} for name, args in calls]
    return f"<action>{json.dumps(body if len(body) > 1 else body[0])}</action>"


@tool
def quit_program() -> str:
    """Calls sys.exit."""
    raise SystemExit(0)


@tool
def bare() -> str:
    """Raises a bare BaseException."""
    raise BaseException("not an Exception")


@tool
def malformed() -> ToolResult:
    """Returns a result whose channels were spoiled after construction."""
    result = ToolResult(output="x")
    result.media = None  # type: ignore[assignment]
    result.clipboard_text = None  # type: ignore[assignment]
    return result


def test_tools_that_exit_or_return_garbage_never_end_the_run(make_agent: MakeAgent) -> None:
    model = ScriptedModel(
        [
            action(("quit_program", {})),
            action(("bare", {}), ("malformed", {})),
            "<answer>still here</answer>",
        ]
    )
    result = make_agent(model, tools=[quit_program, bare, malformed]).run_sync("q")
    assert result.ok and result.answer == "still here"
    errors = [call.error or "" for step in result.steps for call in step.calls]
    assert "it tried to exit the program (SystemExit with code 0)" in errors[0]
    assert "BaseException: not an Exception" in errors[1]
    assert "media must be a list of ImagePart objects, not None" in errors[2]
    assert "clipboard_text must be a list of strings, not None" in errors[2]


@tool
def count(n: int) -> int:
    """Returns n."""
    return n


def test_an_action_with_too_many_calls_is_feedback_and_runs_nothing(
    make_agent: MakeAgent,
) -> None:
    many = action(*[("count", {"n": n}) for n in range(5)])
    model = ScriptedModel([many, action(("count", {"n": 1})), "<answer>ok</answer>"])
    agent = make_agent(model, tools=[count], limits=Limits(max_calls_per_action=4))
    result = agent.run_sync("q")
    assert result.ok
    first = result.steps[0]
    assert first.outcome == "feedback" and first.calls == []
    assert first.error_kind == "TooManyCallsError"
    assert "holds 5 tool calls, but at most 4 are accepted in one action" in (first.feedback or "")
    assert result.stats.tool_calls == {"count": 1}


class _Reading(BaseModel):
    celsius: float


@tool
def sensor() -> str:
    """Validates what it read with pydantic, which fails."""
    _Reading.model_validate({"celsius": "warm"})
    return "never"


@tool
def sensor_without_pydantic() -> str:
    """Raises a plain error."""
    raise ValueError("the sensor is unplugged")


def test_a_tool_raising_a_validation_error_is_worded_without_pydantic_links(
    make_agent: MakeAgent,
) -> None:
    model = ScriptedModel(
        [action(("sensor", {}), ("sensor_without_pydantic", {})), "<answer>done</answer>"]
    )
    result = make_agent(model, tools=[sensor, sensor_without_pydantic]).run_sync("q")
    assert result.ok
    validation, plain = (call.error or "" for call in result.steps[0].calls)
    assert validation == (
        "Tool 'sensor' failed: ValidationError: 1 problem validating _Reading: celsius: Input "
        "should be a valid number, unable to parse string as a number"
    )
    assert plain == "Tool 'sensor_without_pydantic' failed: ValueError: the sensor is unplugged"
