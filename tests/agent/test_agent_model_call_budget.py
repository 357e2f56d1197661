"""Every model call counts against one budget, ``limits.max_model_calls``: a step's call and
each repair's (issue 24, section 4: a step could make ``1 + max_calls_per_action *
max_repairs`` model calls, 33 within ``max_steps: 1``). A counting model is the measure."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable

import pytest

from gent_core._agent import Agent
from gent_core._config import ConfigError, parse_config
from gent_core.context import Limits
from gent_core.model import Model, ModelChunk, ModelRequest

MakeAgent = Callable[..., Agent]


class BrokenCallsModel(Model):
    """Writes an action of ``calls`` calls whose arguments never validate, every time, and
    counts its calls (the repairs' included)."""

    def __init__(self, calls: int) -> None:
        self.calls = calls
        self.made = 0

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        self.made += 1
        written = [{"tool": "add", "args": {"a": "one", "b": 2}}] * self.calls
        body = json.dumps(written[0] if self.calls == 1 else written)
        yield ModelChunk(f"<thinking>Add.</thinking>\n<action>\n{body}\n</action>")


def test_one_step_of_sixteen_broken_calls_makes_no_more_calls_than_the_budget(
    make_agent: MakeAgent,
) -> None:
    """The reported instance: max_steps 1, 16 broken calls, 2 repairs each made 33 calls."""
    model = BrokenCallsModel(16)
    limits = Limits(max_steps=1)
    result = make_agent(model, limits=limits).run_sync("Add them.")
    assert limits.model_call_budget() == 3  # max_steps * (1 + max_repairs)
    assert model.made == 3
    assert len(result.stats.model_calls) == 3
    (step,) = result.steps
    assert len(step.repairs) == 2
    assert [call.status for call in step.calls] == ["error"] * 16  # ran as written, failed
    assert not result.ok


def test_repairs_spend_the_budget_across_steps_and_the_run_says_so(
    make_agent: MakeAgent,
) -> None:
    model = BrokenCallsModel(1)
    limits = Limits(max_steps=10, max_model_calls=4, max_repeated_failures=10)
    result = make_agent(model, limits=limits).run_sync("Add them.")
    assert model.made == 4  # step 1 and its 2 repairs, then step 2 with none left
    assert [len(step.repairs) for step in result.steps] == [2, 0]
    assert result.stop_reason == "max_model_calls"
    assert result.message == (
        "the run made its limit of 4 model calls without an answer (2 steps and 2 repairs; "
        "limits.max_model_calls)"
    )


def test_the_budget_is_a_config_key_refused_below_one() -> None:
    loaded = parse_config("model: scripted\nlimits: {max_model_calls: 7}\n")
    assert loaded.config.limits_object().model_call_budget() == 7
    with pytest.raises(ConfigError) as caught:
        parse_config("model: scripted\nlimits: {max_model_calls: 0}\n")
    assert "key 'limits.max_model_calls': expected an integer >= 1 or null, got 0" in str(
        caught.value
    )
