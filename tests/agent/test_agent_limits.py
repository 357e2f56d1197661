"""Cancellation stops a run cleanly (model timeouts: test_agent_output_bounds.py)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable

from gent_core._agent import Agent, StepStarted
from gent_core.context import Limits
from gent_core.events import AgentEvent
from gent_core.model import Model, ModelChunk, ModelRequest

MakeAgent = Callable[..., Agent]


class CountingModel(Model):
    def __init__(self) -> None:
        self.calls = 0

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        self.calls += 1
        call = json.dumps({"tool": "add", "args": {"a": self.calls, "b": 1}})
        yield ModelChunk(f"<action>{call}</action>")


def test_cancellation_stops_before_the_next_step(make_agent: MakeAgent) -> None:
    model = CountingModel()
    agent = make_agent(model, limits=Limits(max_steps=10))

    def cancel_during_step_two(event: AgentEvent) -> None:
        if isinstance(event, StepStarted) and event.step == 2:
            agent.cancel("the user pressed stop")

    result = agent.run_sync("q", on_event=cancel_during_step_two)
    assert result.stop_reason == "cancelled"
    assert result.message == "the run was cancelled: the user pressed stop"
    assert len(result.steps) == 2
    assert model.calls == 2


def test_a_cancelled_run_does_not_cancel_the_next_one(make_agent: MakeAgent) -> None:
    model = CountingModel()
    agent = make_agent(model, limits=Limits(max_steps=2))

    def cancel_at_once(event: AgentEvent) -> None:
        if isinstance(event, StepStarted):
            agent.cancel()

    assert agent.run_sync("q", on_event=cancel_at_once).stop_reason == "cancelled"
    assert agent.run_sync("q").stop_reason == "max_steps"


def test_only_the_run_that_loads_the_model_counts_load_time(make_agent: MakeAgent) -> None:
    class SlowLoadModel(CountingModel):
        async def load(self) -> None:
            await asyncio.sleep(0.05)

    agent = make_agent(SlowLoadModel(), limits=Limits(max_steps=1))
    assert agent.run_sync("q").stats.load_seconds >= 0.05
    assert agent.run_sync("q").stats.load_seconds == 0.0
