"""Values beyond gent's bounds in a whole run: feedback for the model, error results for tools,
strict JSON out (issue 11, bugs 2, 3 and 5 at the agent level)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from gent_json import JSONToolChain
from gent_xml.format import XMLFormat
from pydantic import BaseModel

from gent_core._agent import Agent
from gent_core._serialize import MAX_DEPTH, write_json
from gent_core._terminations.typed import JSONTermination
from gent_core.records import RunResult
from gent_core.testing import ScriptedModel
from gent_core.toolchain import ToolCall
from gent_core.tools import tool
from tests.strict_json import strict_loads

MakeAgent = Callable[..., Agent]


def lists(levels: int) -> str:
    return "[" * levels + "]" * levels


def action(arguments: str, tool_name: str = "add") -> str:
    return f'<action>{{"tool": "{tool_name}", "args": {arguments}}}</action>'


def as_strict_json(result: RunResult) -> Any:
    return strict_loads(write_json(result.to_dict(), indent=2))


def test_nan_in_call_arguments_is_feedback_and_the_run_goes_on(make_agent: MakeAgent) -> None:
    model = ScriptedModel([action('{"a": NaN, "b": 1}'), "<answer>ok</answer>"])
    result = make_agent(model).run_sync("q")
    assert result.ok
    first = result.steps[0]
    assert first.outcome == "feedback" and not first.calls
    assert "is NaN, which is not a JSON number" in (first.feedback or "")
    assert "is NaN, which is not a JSON number" in model.requests[1].messages[-1].text
    as_strict_json(result)


def test_arguments_nested_past_the_bound_are_feedback(make_agent: MakeAgent) -> None:
    deep = '{"a": ' + lists(MAX_DEPTH) + "}"
    model = ScriptedModel([action(deep), "<answer>ok</answer>"])
    result = make_agent(model).run_sync("q")
    assert result.ok
    assert f"nests more than {MAX_DEPTH} levels deep" in (result.steps[0].feedback or "")
    as_strict_json(result)


def test_huge_integer_in_arguments_is_feedback(make_agent: MakeAgent) -> None:
    model = ScriptedModel([action('{"a": ' + "7" * 5000 + ', "b": 1}'), "<answer>ok</answer>"])
    result = make_agent(model).run_sync("q")
    assert result.ok
    assert "more than 4300 digits" in (result.steps[0].feedback or "")
    as_strict_json(result)


class Reading(BaseModel):
    value: float
    extra: Any = None


def test_typed_answer_with_nan_is_feedback() -> None:
    model = ScriptedModel(['<answer>{"value": NaN}</answer>', '<answer>{"value": 1.5}</answer>'])
    agent = Agent(model, XMLFormat(), JSONToolChain(), JSONTermination(Reading))
    result = agent.run_sync("q")
    assert result.ok and result.answer == Reading(value=1.5)
    assert "answer.value is NaN" in (result.steps[0].feedback or "")
    as_strict_json(result)


def test_typed_answer_nested_past_the_bound_is_feedback() -> None:
    deep = '{"value": 1, "extra": ' + lists(MAX_DEPTH + 50) + "}"
    model = ScriptedModel([f"<answer>{deep}</answer>", '<answer>{"value": 2}</answer>'])
    agent = Agent(model, XMLFormat(), JSONToolChain(), JSONTermination(Reading))
    result = agent.run_sync("q")
    assert result.ok and result.answer == Reading(value=2)
    assert "nests more than 100 levels deep" in (result.steps[0].feedback or "")
    as_strict_json(result)


def nested_value(levels: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(levels - 1):
        value = [value]
    return value


@tool
def deep_output(levels: int) -> list[Any]:
    """Return lists nested ``levels`` deep."""
    return nested_value(levels)


@tool
def statistics() -> dict[str, float]:
    """Return a mean that is not a number."""
    return {"mean": math.nan, "max": math.inf}


def test_tool_output_nested_past_the_bound_is_an_error_result(make_agent: MakeAgent) -> None:
    model = ScriptedModel(
        [
            action('{"levels": 150}', "deep_output"),
            action(f'{{"levels": {MAX_DEPTH}}}', "deep_output"),
            "<answer>ok</answer>",
        ]
    )
    result = make_agent(model, tools=[deep_output]).run_sync("q")
    assert result.ok
    too_deep, at_bound = result.steps[0].calls[0], result.steps[1].calls[0]
    assert too_deep.status == "error"
    assert "nests more than 100 levels deep" in (too_deep.error or "")
    assert at_bound.status == "success"
    data = as_strict_json(result)
    assert data["steps"][1]["calls"][0]["output"] == nested_value(MAX_DEPTH)


def test_tool_output_with_nan_is_kept_and_written_as_strings(make_agent: MakeAgent) -> None:
    model = ScriptedModel([action("{}", "statistics"), "<answer>ok</answer>"])
    result = make_agent(model, tools=[statistics]).run_sync("q")
    assert result.steps[0].calls[0].status == "success"
    data = as_strict_json(result)
    assert data["steps"][0]["calls"][0]["output"] == {"mean": "NaN", "max": "Infinity"}


class NaNChain(JSONToolChain):
    """A third-party chain that does not check its values."""

    def parse(self, content: str) -> list[ToolCall]:
        return [ToolCall("add", {"a": math.nan, "b": 1}, "call_0")]


def test_any_chain_is_held_to_the_bounds(make_agent: MakeAgent) -> None:
    from tests.agent.conftest import add

    model = ScriptedModel([action("{}"), "<answer>ok</answer>"])
    agent = Agent(model, XMLFormat(), NaNChain(), tools=[add])
    result = agent.run_sync("q")
    assert result.ok
    assert result.steps[0].outcome == "feedback" and not result.steps[0].calls
    assert "args.a is NaN" in (result.steps[0].feedback or "")
