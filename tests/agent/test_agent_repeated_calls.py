"""A call repeating an earlier call of the run with the same result gets a note naming that
result (gent_core._agent.repeats), over the real XML format and JSON chain.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from gent_core._agent import Agent
from gent_core._agent.feedback import repeat_note
from gent_core._agent.repeats import find_repeats
from gent_core.records import StepRecord, ToolCallRecord
from gent_core.testing import ScriptedModel
from gent_core.tools import tool

MakeAgent = Callable[..., Agent]


def action(*calls: tuple[str, dict[str, Any]]) -> str:
    objects = [{"tool": name, "args": args} for name, args in calls]
    body = json.dumps(objects[0] if len(objects) == 1 else objects)
    return f"<thinking>Call.</thinking>\n<action>\n{body}\n</action>"


def answer(text: str) -> str:
    return f"<thinking>Done.</thinking>\n<answer>{text}</answer>"


def observation(model: ScriptedModel, request: int) -> str:
    return model.requests[request].messages[-1].text


def test_the_same_call_with_the_same_result_gets_a_note_naming_the_result(
    make_agent: MakeAgent,
) -> None:
    model = ScriptedModel(
        [action(("add", {"a": 17, "b": 374})), action(("add", {"b": 374, "a": 17})), answer("391")]
    )
    result = make_agent(model).run_sync("What is 17 + 374?")
    assert result.ok
    assert "Note:" not in observation(model, 1)  # the first call is new
    second = observation(model, 2)
    assert second.startswith("<observation>\n<add>\n391\n</add>\n</observation>")
    assert (
        "Note: you already called add with these arguments in step 1, and it returned the "
        "same result: 391. Do not call it again: use the result you already have. If it "
        "answers the task, write the answer section now."
    ) in second
    assert result.steps[1].notes == [second.split("\n\n", 1)[1]]
    assert result.steps[1].followup == second


def test_other_arguments_are_not_a_repeat(make_agent: MakeAgent) -> None:
    model = ScriptedModel(
        [action(("add", {"a": 1, "b": 2})), action(("add", {"a": 2, "b": 2})), answer("4")]
    )
    result = make_agent(model).run_sync("Add.")
    assert result.ok
    assert "Note:" not in observation(model, 2)
    assert result.steps[1].notes == []


def test_a_call_whose_result_changed_gets_a_milder_note(make_agent: MakeAgent) -> None:
    counter = iter(range(100))

    @tool
    def tick() -> int:
        """Count up."""
        return next(counter)

    model = ScriptedModel([action(("tick", {})), action(("tick", {})), answer("1")])
    result = make_agent(model, tools=[tick]).run_sync("Tick twice.")
    assert [call.output for step in result.steps[:2] for call in step.calls] == [0, 1]
    second = observation(model, 2)
    assert "it returned the same result" not in second
    assert (
        "Note: you already called tick with these arguments in step 1; this is its newer "
        "result. Do not call it again for the same thing: if the results you have answer the "
        "task, write the answer section now."
    ) in second


def test_a_failing_call_repeated_with_the_same_error_is_told_to_change(
    make_agent: MakeAgent,
) -> None:
    model = ScriptedModel(
        [
            action(("fail", {"reason": "no disk"})),
            action(("fail", {"reason": "no disk"})),
            answer("x"),
        ]
    )
    result = make_agent(model).run_sync("Fail.")
    second = observation(model, 2)
    error = result.steps[1].calls[0].error
    assert error is not None and "no disk" in error
    assert (
        "Note: you already made this exact call to fail in step 1, and it failed the same way:"
        in second
    )
    assert "Calling it again will not help: change the arguments" in second


def test_the_same_call_twice_in_one_action_is_noted_once(make_agent: MakeAgent) -> None:
    model = ScriptedModel(
        [action(("add", {"a": 1, "b": 1}), ("add", {"a": 1, "b": 1})), answer("2")]
    )
    result = make_agent(model).run_sync("Add.")
    first = observation(model, 1)
    assert (
        first.count("Note: you already called add with these arguments earlier in this step") == 1
    )
    assert result.ok


def test_repeats_are_found_across_steps_and_point_at_the_first_match() -> None:
    def call(args: dict[str, Any], output: Any, status: str = "success") -> ToolCallRecord:
        return ToolCallRecord("call_0", "calc", args, status, output)

    steps = [
        StepRecord(index=1, output="", outcome="action", calls=[call({"x": "6*7"}, 42)]),
        StepRecord(index=2, output="", outcome="feedback"),
        StepRecord(index=3, output="", outcome="action", calls=[call({"x": "6*7"}, 42)]),
    ]
    current = StepRecord(index=4, output="", outcome="action", calls=[call({"x": "6*7"}, 42)])
    (repeat,) = find_repeats(steps, current)
    assert repeat.earlier_step == 1 and repeat.earlier is steps[0].calls[0] and repeat.same_result
    (changed,) = find_repeats(steps, StepRecord(4, "", "action", calls=[call({"x": "6*7"}, 43)]))
    assert not changed.same_result and changed.earlier_step == 3  # the latest earlier call
    assert find_repeats(steps, StepRecord(4, "", "action", calls=[call({"x": "6*8"}, 48)])) == []
    note = repeat_note(
        repeat, step=4, answer_section="final", format_output=lambda value: f"<{value}>"
    )
    assert "in step 1, and it returned the same result: <42>." in note
    assert "write the final section now" in note


def test_a_long_result_is_shortened_in_the_note() -> None:
    record = ToolCallRecord("call_0", "read", {"path": "a"}, "success", "word " * 200)
    earlier = StepRecord(index=1, output="", outcome="action", calls=[record])
    current = StepRecord(index=2, output="", outcome="action", calls=[record])
    (repeat,) = find_repeats([earlier], current)
    note = repeat_note(repeat, step=2, answer_section="answer", format_output=str)
    assert "word word" in note and "[...]" in note and len(note) < 500
