"""A model call's output is bounded (issue 17): ``limits.max_output_chars`` stops a model that
writes forever, ``timeouts.model`` stops one still writing, ``timeouts.model_idle`` one that
went silent. An output stopped at a bound is treated like one the back end cut off: nothing in
it runs, the model is told, and the record says why it stopped.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from gent_core._agent import Agent, FeedbackSent
from gent_core._transcript.lines import load_transcript
from gent_core.context import Limits
from gent_core.model import Model, ModelChunk, ModelRequest
from gent_core.testing import ScriptedModel
from tests.agent.conftest import EventLog

MakeAgent = Callable[..., Agent]


class ForeverModel(Model):
    """Writes an open thinking section, then the same words forever (in 1,000-character
    chunks). It gives up with an error once it has written far more than any bound of these
    tests, so that an agent that never stops the stream fails the test instead of hanging.
    """

    GIVE_UP = 5_000_000

    def __init__(self) -> None:
        self.requests: list[ModelRequest] = []
        self.closed = 0

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        self.requests.append(request)
        written = 0
        try:
            yield ModelChunk("<thinking>")
            while written < self.GIVE_UP:
                yield ModelChunk("all work and no play " * 50)
                written += 1_050
            raise RuntimeError(f"the stream was never stopped ({written:,} characters)")
        finally:
            self.closed += 1


def test_a_model_that_writes_forever_is_stopped_at_max_output_chars(
    make_agent: MakeAgent, events: EventLog, tmp_path: Path
) -> None:
    model = ForeverModel()
    limits = Limits(max_steps=5, max_output_chars=20_000, max_consecutive_format_errors=2)
    transcript = tmp_path / "run.jsonl"
    result = make_agent(model, limits=limits).run_sync("q", on_event=events, transcript=transcript)
    assert result.stop_reason == "format_errors"  # the model was told twice, then the run ended
    assert len(model.requests) == 2 and model.closed == 2  # each stream was closed at the bound
    first = result.steps[0]
    assert len(first.output) == 20_000
    assert first.model.finish_reason == "output_limit"
    assert first.outcome == "feedback" and first.error_kind == "TruncatedOutputError"
    assert first.feedback is not None
    assert first.feedback.startswith(
        "Your output was cut off inside the thinking section: it reached the most one output "
        "may have (20,000 characters) before it ended, so nothing in it was run or used."
    )
    # The model reads it, and the live view gets it as feedback.
    assert first.feedback in model.requests[1].messages[-1].text
    assert [event.message for event in events.of(FeedbackSent)] == [
        step.feedback for step in result.steps
    ]
    # The transcript says why the output stopped, and reads back.
    lines = [json.loads(line) for line in transcript.read_text().splitlines()]
    assert lines[1]["model"]["finish_reason"] == "output_limit"
    assert load_transcript(transcript).steps[0].output == first.output


def test_a_call_cut_at_the_bound_is_not_run_and_one_at_the_bound_is(
    make_agent: MakeAgent,
) -> None:
    # What the model sends counts: the stop sequence (</action>) is dropped by the back end.
    head, limit = '<action>{"tool": "add", "args": {"a": 2, "b": 2}, "note": "', 200
    fits = head + "x" * (limit - len(head) - 2) + '"}'
    too_long = head + "x" * (limit - len(head) - 1) + '"}'
    assert (len(fits), len(too_long)) == (limit, limit + 1)
    fits, too_long = fits + "</action>", too_long + "</action>"
    # chunk_size 0: each output comes as one chunk, larger than what is left of the bound.
    model = ScriptedModel([too_long, fits, "<answer>4</answer>"], chunk_size=0)
    limits = Limits(max_steps=5, max_output_chars=limit)
    result = make_agent(model, limits=limits).run_sync("q")
    cut, ran, _ = result.steps
    assert cut.outcome == "feedback" and cut.calls == []
    assert cut.output == too_long[:limit]
    assert cut.model.finish_reason == "output_limit"
    assert "(200 characters)" in (cut.feedback or "")
    assert ran.outcome == "action" and [call.output for call in ran.calls] == [4]
    assert result.answer == "4"


class WritesThenHangs(Model):
    """Writes ``text`` (nothing when empty), then waits forever; counts closed streams."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.closed = 0

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        try:
            if self.text:
                yield ModelChunk(self.text)
            await asyncio.Event().wait()
            yield ModelChunk("</thinking>")
        finally:
            self.closed += 1


def test_a_model_that_goes_silent_stops_the_run_at_the_idle_timeout(
    make_agent: MakeAgent,
) -> None:
    model = WritesThenHangs("<thinking>Let me think")
    agent = make_agent(model, limits=Limits(max_steps=3, model_idle_timeout=0.2))
    result = agent.run_sync("q")
    assert result.stop_reason == "model_error"
    assert result.message.startswith(
        "the model sent no output for 0.2 s after 22 characters (timeouts.model_idle): "
        "the back end seems hung"
    )
    assert "may need a higher timeouts.model_idle" in result.message
    assert model.closed == 1
    assert result.steps == []


def test_the_idle_timeout_counts_the_wait_for_the_first_text(make_agent: MakeAgent) -> None:
    model = WritesThenHangs("")
    result = make_agent(model, limits=Limits(model_idle_timeout=0.2)).run_sync("q")
    assert result.stop_reason == "model_error"
    assert result.message.startswith("the model sent no output for 0.2 s (timeouts.model_idle)")


class SlowWriter(Model):
    """Writes an answer in ``pieces`` chunks, ``pause`` seconds apart."""

    def __init__(self, pieces: int, pause: float) -> None:
        self.pieces = pieces
        self.pause = pause

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        yield ModelChunk("<answer>")
        for _ in range(self.pieces):
            await asyncio.sleep(self.pause)
            yield ModelChunk("slow ")
        yield ModelChunk("</answer>", finish_reason="stop")


def test_a_slow_model_that_keeps_writing_outlives_the_idle_timeout(
    make_agent: MakeAgent,
) -> None:
    # 150 pauses of 0.01 s: the call takes longer than the idle timeout (1 s), but no pause
    # comes near it.
    model = SlowWriter(150, 0.01)
    result = make_agent(model, limits=Limits(model_idle_timeout=1.0)).run_sync("q")
    assert result.ok, result.message
    assert result.answer == " ".join(["slow"] * 150)


def test_the_call_timeout_treats_an_output_still_being_written_as_cut_off(
    make_agent: MakeAgent,
) -> None:
    model = WritesThenHangs("<thinking>Let me think")
    limits = Limits(max_steps=2, model_timeout=0.2, max_consecutive_format_errors=5)
    result = make_agent(model, limits=limits).run_sync("q")
    assert result.stop_reason == "max_steps"
    assert model.closed == 2
    first = result.steps[0]
    assert first.model.finish_reason == "time_limit"
    assert first.output == "<thinking>Let me think"
    assert (first.feedback or "").startswith(
        "Your output was cut off inside the thinking section: it reached the time one output "
        "may take (0.2 s) before it ended, so nothing in it was run or used."
    )


def test_the_call_timeout_stops_the_run_when_nothing_was_written(make_agent: MakeAgent) -> None:
    model = WritesThenHangs("")
    result = make_agent(model, limits=Limits(model_timeout=0.2)).run_sync("q")
    assert result.stop_reason == "model_error"
    assert result.message == "the model did not finish within 0.2 s"
    assert model.closed == 1
