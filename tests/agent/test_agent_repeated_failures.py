"""A model repeating the same failing call stops after ``limits.max_repeated_failures`` (3)
failures of that call, with a message naming it (issue 26, section 1: a scaffolded tool
package hit 10 identical calls and ``max_steps``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from gent_core._agent import Agent
from gent_core.context import Limits
from gent_core.testing import ScriptedModel

MakeAgent = Callable[..., Agent]


def action(*calls: tuple[str, dict[str, Any]]) -> str:
    objects = [{"tool": name, "args": args} for name, args in calls]
    body = json.dumps(objects[0] if len(objects) == 1 else objects)
    return f"<thinking>Call.</thinking>\n<action>\n{body}\n</action>"


def test_the_same_failing_call_stops_the_run_at_the_third_failure(make_agent: MakeAgent) -> None:
    model = ScriptedModel([action(("fail", {"reason": "no such city"}))] * 10)
    result = make_agent(model, limits=Limits(max_steps=10)).run_sync("Weather?")
    assert result.stop_reason == "repeated_failure"
    assert len(result.steps) == 3
    assert len(model.requests) == 3
    assert result.message.startswith(
        "the model made the same failing call 3 times (limit 3, limits.max_repeated_failures): "
        'fail {"reason": "no such city"}; its error: '
    )
    assert "no such city" in result.message.split("its error: ", 1)[1]


def test_failures_of_one_call_between_other_steps_count_and_others_do_not(
    make_agent: MakeAgent,
) -> None:
    """Neither consecutive (a successful call in between each time, so the consecutive-error
    limit never fires) nor alone in its step; the same tool with other arguments is another
    call."""
    failing = ("fail", {"reason": "x"})
    outputs = [
        action(failing, ("add", {"a": 1, "b": 1})),
        action(("fail", {"reason": "y"})),
        action(("add", {"a": 2, "b": 2})),
        action(("add", {"a": 3, "b": 3}), failing),
        action(("add", {"a": 4, "b": 4})),
        action(failing),
        action(("add", {"a": 5, "b": 5})),
    ]
    model = ScriptedModel(outputs)
    limits = Limits(max_steps=7, max_consecutive_tool_errors=5)
    result = make_agent(model, limits=limits).run_sync("q")
    assert result.stop_reason == "repeated_failure"
    assert len(result.steps) == 6
    assert 'fail {"reason": "x"}' in result.message


def test_the_limit_is_configurable(make_agent: MakeAgent) -> None:
    model = ScriptedModel([action(("fail", {"reason": "r"}))] * 4)
    limits = Limits(max_steps=4, max_repeated_failures=2)
    result = make_agent(model, limits=limits).run_sync("q")
    assert (result.stop_reason, len(result.steps)) == ("repeated_failure", 2)
    model = ScriptedModel([action(("fail", {"reason": "r"}))] * 4)
    limits = Limits(max_steps=4, max_repeated_failures=5, max_consecutive_tool_errors=5)
    result = make_agent(model, limits=limits).run_sync("q")
    assert (result.stop_reason, len(result.steps)) == ("max_steps", 4)
