"""The ReAct loop's rules, driven by a scripted model over the real XML format and JSON chain."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from gent_core._agent import (
    Agent,
    AnswerReady,
    FeedbackSent,
    ModelLoaded,
    OutputEvent,
    RunFinished,
    StepStarted,
    ToolCallFinished,
    ToolCallsStarted,
)
from gent_core.context import Limits
from gent_core.errors import GentError
from gent_core.messages import ImagePart
from gent_core.model import ModelChunk, ModelRequest
from gent_core.records import ModelCallStats, RunStats
from gent_core.sections import TextDelta
from gent_core.testing import ScriptedModel
from tests.agent.conftest import EventLog

MakeAgent = Callable[..., Agent]


def action(tool_name: str, **args: Any) -> str:
    call = json.dumps({"tool": tool_name, "args": args})
    return f"<thinking>I will call {tool_name}.</thinking>\n<action>\n{call}\n</action>"


def answer(text: str) -> str:
    return f"<thinking>Done.</thinking>\n<answer>{text}</answer>"


def test_action_then_answer(make_agent: MakeAgent, events: EventLog) -> None:
    model = ScriptedModel([action("add", a=2, b=3), answer("5")])
    result = make_agent(model).run_sync("What is 2 + 3?", on_event=events)
    assert result.ok
    assert result.answer == "5"
    assert result.stop_reason == "answer"
    assert [step.outcome for step in result.steps] == ["action", "answer"]
    call = result.steps[0].calls[0]
    assert (call.tool, call.args, call.status, call.output) == (
        "add",
        {"a": 2, "b": 3},
        "success",
        5,
    )
    observation = model.requests[1].messages[-1].text
    assert observation == "<observation>\n<add>\n5\n</add>\n</observation>"
    assert model.requests[1].messages[-2].text == result.steps[0].output
    kinds = [type(event).__name__ for event in events if not isinstance(event, OutputEvent)]
    assert kinds == [
        "RunStarted", "ModelLoading", "ModelLoaded", "StepStarted", "ToolCallsStarted",
        "ToolCallFinished", "StepStarted", "AnswerReady", "RunFinished",
    ]  # fmt: skip


def test_streamed_text_events_reassemble_the_output(
    make_agent: MakeAgent, events: EventLog
) -> None:
    model = ScriptedModel([answer("forty-two")], chunk_size=3)
    make_agent(model).run_sync("q", on_event=events)
    deltas = [e.event for e in events.of(OutputEvent) if isinstance(e.event, TextDelta)]
    assert "".join(d.text for d in deltas if d.section == "answer") == "forty-two"
    assert "".join(d.text for d in deltas if d.section == "thinking") == "Done."


def test_model_never_writes_its_own_observation(make_agent: MakeAgent) -> None:
    invented = action("add", a=1, b=1) + "\n<observation>\n<add>\n3\n</add>\n</observation>"
    model = ScriptedModel([invented, answer("2")])
    result = make_agent(model).run_sync("q")
    assert model.requests[0].stop == ["</action>", "</answer>"]
    step = result.steps[0]
    assert step.output.endswith("</action>")  # the stop sequence was restored
    assert "<observation>" not in step.output
    assert model.requests[1].messages[-1].text == "<observation>\n<add>\n2\n</add>\n</observation>"


class NoStopModel(ScriptedModel):
    """A back end without stop sequences: it would write on forever unless stopped."""

    def __init__(self, outputs: list[str]) -> None:
        super().__init__(outputs, chunk_size=5)
        self.closed_early = 0

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        stopless = ModelRequest(request.messages, stop=[], structure=request.structure)
        produced = 0
        try:
            async for chunk in super().stream(stopless):
                produced += 1
                yield chunk
        finally:
            if produced and chunk.finish_reason is None:
                self.closed_early += 1
        self.requests[-1] = request


def test_stream_is_cancelled_once_the_action_closes(make_agent: MakeAgent) -> None:
    rambling = action("add", a=4, b=4) + "\n<observation>8</observation>\n" + "blah " * 200
    model = NoStopModel([rambling, answer("8")])
    result = make_agent(model).run_sync("q")
    assert model.closed_early == 2
    assert result.steps[0].output == action("add", a=4, b=4)
    assert result.steps[0].model.finish_reason == "section_closed"
    assert result.answer == "8"


class WholeOutputModel(ScriptedModel):
    """A non-streaming back end without stop sequences: the whole output in one chunk."""

    def __init__(self, outputs: list[str]) -> None:
        super().__init__(outputs, chunk_size=0)

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        async for chunk in super().stream(ModelRequest(request.messages)):
            yield chunk


def test_action_and_answer_together_runs_action_and_ignores_answer(make_agent: MakeAgent) -> None:
    both = "<answer>wrong</answer>\n" + action("add", a=1, b=2)
    model = WholeOutputModel([both, answer("3")])
    result = make_agent(model).run_sync("q")
    first = result.steps[0]
    assert first.outcome == "action"
    assert first.notes == [
        "Your answer was ignored because you also wrote an action: answer only after you "
        "have seen the results."
    ]
    assert "Your answer was ignored" in model.requests[1].messages[-1].text
    assert result.answer == "3"


def test_neither_action_nor_answer_gets_feedback(make_agent: MakeAgent, events: EventLog) -> None:
    model = ScriptedModel(["<thinking>Hmm, let me think.</thinking>", answer("ok")])
    result = make_agent(model).run_sync("q", on_event=events)
    first = result.steps[0]
    assert first.outcome == "feedback"
    assert first.feedback is not None
    assert first.feedback.startswith("Your output had no usable action or answer section")
    assert "You wrote: <thinking>Hmm, let me think.</thinking>" in first.feedback
    assert "<action>\n...\n</action>" in first.feedback
    sent = model.requests[1].messages[-1].text
    assert sent.startswith("<observation>\n<error>\nYour output had no usable")
    assert events.of(FeedbackSent)[0].message == first.feedback
    assert result.answer == "ok"


def test_empty_action_is_treated_as_absent(make_agent: MakeAgent) -> None:
    model = ScriptedModel(["<action>\n  \n</action>", "<answer>\n</answer>", answer("fine")])
    result = make_agent(model).run_sync("q")
    assert [step.outcome for step in result.steps] == ["feedback", "feedback", "answer"]


def test_no_sections_at_all_quotes_the_output(make_agent: MakeAgent) -> None:
    model = ScriptedModel(["The answer is 4.", answer("4")])
    result = make_agent(model).run_sync("q")
    feedback = result.steps[0].feedback
    assert feedback is not None
    assert "No recognised section found" in feedback
    assert "You wrote: The answer is 4." in feedback
    assert result.steps[0].error_kind == "NoSectionsFoundError"


def test_output_cut_off_by_the_token_limit_is_not_used(make_agent: MakeAgent) -> None:
    model = ScriptedModel(
        [("<thinking>x</thinking><answer>The long answer is", "length"), answer("ok")]
    )
    result = make_agent(model).run_sync("q")
    feedback = result.steps[0].feedback
    assert feedback is not None
    assert feedback.startswith("Your output was cut off inside the answer section")
    assert result.answer == "ok"


def test_unparseable_call_is_feedback_and_nothing_runs(make_agent: MakeAgent) -> None:
    cut = '<action>{"tool": "add", "args": {"a": 1,</action>'
    model = ScriptedModel([cut, answer("done")])
    result = make_agent(model).run_sync("q")
    assert result.steps[0].outcome == "feedback"
    assert result.steps[0].error_kind == "TruncatedCallError"
    assert result.stats.tool_calls == {}


def test_consecutive_format_errors_stop_the_run(make_agent: MakeAgent) -> None:
    model = ScriptedModel(["nothing"] * 5)
    result = make_agent(
        model, limits=Limits(max_steps=10, max_consecutive_format_errors=3)
    ).run_sync("q")
    assert result.stop_reason == "format_errors"
    assert len(result.steps) == 3
    assert result.message.startswith("3 unusable outputs in a row (limit 3)")
    assert not result.ok
    assert result.answer is None


def test_a_good_step_resets_the_format_error_count(make_agent: MakeAgent) -> None:
    outputs = ["x", "y", action("add", a=1, b=1), "z", "w", answer("2")]
    model = ScriptedModel(outputs)
    agent = make_agent(model, limits=Limits(max_steps=10, max_consecutive_format_errors=3))
    assert agent.run_sync("q").answer == "2"


def test_consecutive_tool_errors_stop_the_run(make_agent: MakeAgent) -> None:
    model = ScriptedModel([action("fail", reason="boom")] * 4 + [answer("never")])
    agent = make_agent(model, limits=Limits(max_steps=10, max_consecutive_tool_errors=2))
    result = agent.run_sync("q")
    assert result.stop_reason == "tool_errors"
    assert len(result.steps) == 2
    error = result.steps[0].calls[0].error
    assert error is not None
    assert "RuntimeError" in error
    assert "boom" in error
    assert result.stats.tool_errors == {"fail": 2}


def test_unknown_tool_lists_the_available_ones(make_agent: MakeAgent) -> None:
    """The model is told the tools when asked to repair the call, and again in the
    observation when the repairs fail too (the call then runs and fails)."""
    model = ScriptedModel([action("multiply", a=2, b=3)] * 3 + [answer("6")])
    result = make_agent(model).run_sync("q")
    listed = "Unknown tool 'multiply'. Available tools: add, fail, note, snapshot."
    assert listed in model.requests[1].messages[-1].text  # the first repair request
    assert [repair.ok for repair in result.steps[0].repairs] == [False, False]
    assert result.steps[0].calls[0].status == "error"
    assert listed in model.requests[3].messages[-1].text  # the observation


def test_max_steps_stops_the_run(make_agent: MakeAgent) -> None:
    model = ScriptedModel([action("add", a=1, b=1)] * 3)
    result = make_agent(model, limits=Limits(max_steps=3)).run_sync("q")
    assert result.stop_reason == "max_steps"
    assert result.message == "the run reached its limit of 3 steps without an answer"
    assert len(result.steps) == 3


def test_model_failure_stops_the_run_cleanly(make_agent: MakeAgent) -> None:
    model = ScriptedModel([action("add", a=1, b=1)])  # no second output: the model fails
    result = make_agent(model).run_sync("q")
    assert result.stop_reason == "model_error"
    assert "no output left for call 2" in result.message
    assert len(result.steps) == 1


def test_clipboard_is_shown_each_step_with_files_read_fresh(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    (tmp_path / "notes.txt").write_text("version one")
    model = ScriptedModel(
        [action("note", text="remember 42", file="notes.txt"), action("add", a=1, b=1), answer("k")]
    )
    agent = make_agent(model)

    def rewrite(event: object) -> None:
        if isinstance(event, StepStarted) and event.step == 2:
            (tmp_path / "notes.txt").write_text("version two")

    result = agent.run_sync("q", on_event=rewrite)
    second = model.requests[1].messages[-1].text
    assert (
        "<clipboard>\n<text>\nremember 42\n</text>\n<file>\npath: notes.txt\nversion one" in second
    )
    third = model.requests[2].messages[-1].text
    assert "path: notes.txt\nversion two" in third
    assert result.steps[-1].clipboard == [
        {"text": "remember 42", "source": "note"},
        {"path": "notes.txt", "source": "note"},
    ]


def test_clipboard_file_outside_the_working_directory_is_refused(make_agent: MakeAgent) -> None:
    model = ScriptedModel([action("note", text="x", file="../etc/passwd"), answer("k")])
    result = make_agent(model).run_sync("q")
    assert result.steps[0].calls[0].status == "error"
    assert result.steps[0].clipboard == []


def test_media_reaches_models_that_accept_images(make_agent: MakeAgent) -> None:
    model = ScriptedModel([action("snapshot"), answer("seen")], supports_images=True)
    result = make_agent(model).run_sync("q")
    message = model.requests[1].messages[-1]
    assert message.images == (ImagePart(b"PNGDATA", "image/png"),)
    assert result.steps[0].followup_media == [{"media_type": "image/png", "data": "UE5HREFUQQ=="}]


def test_media_for_text_only_models_is_announced_not_silently_dropped(
    make_agent: MakeAgent,
) -> None:
    model = ScriptedModel([action("snapshot"), answer("blind")])
    make_agent(model).run_sync("q")
    message = model.requests[1].messages[-1]
    assert message.images == ()
    assert "1 image(s) returned by tools cannot be shown to this model" in message.text


def test_stats_count_steps_tokens_tools_and_time(make_agent: MakeAgent) -> None:
    model = ScriptedModel([action("add", a=1, b=2), action("add", a=3, b=4), answer("7")])
    result = make_agent(model).run_sync("q")
    stats = result.stats
    assert stats.steps == 3
    assert len(stats.model_calls) == 3
    assert stats.output_tokens == sum(step.model.output_tokens or 0 for step in result.steps)
    assert stats.output_tokens > 0
    assert stats.input_tokens > 0
    assert stats.tokens_reported
    assert stats.tool_calls == {"add": 2}
    assert stats.total_seconds >= stats.model_seconds + stats.tool_seconds
    data = result.to_dict()
    assert data["stats"]["tool_calls"] == {"add": 2}
    assert set(data["stats"]["seconds"]) == {"model", "parse", "tools", "load", "total"}


def test_token_counts_no_call_reported_are_unknown_not_zero() -> None:
    unreported = RunStats(model_calls=[ModelCallStats(), ModelCallStats(seconds=1.0)])
    assert (unreported.input_tokens, unreported.tokens_reported) == (0, False)
    one = RunStats(model_calls=[ModelCallStats(), ModelCallStats(output_tokens=5)])
    assert (one.output_tokens, one.tokens_reported) == (5, True)


def test_system_prompt_has_every_part(make_agent: MakeAgent) -> None:
    agent = make_agent(ScriptedModel([]))
    prompt = agent.system_prompt()
    assert prompt.startswith("You are a capable assistant")
    assert "Never write an observation yourself." in prompt
    assert "Rules:\n- Call only the tools listed" in prompt
    assert "add(" in prompt
    assert agent.format.describe(agent.sections()) in prompt


def test_events_carry_calls_and_results(make_agent: MakeAgent, events: EventLog) -> None:
    model = ScriptedModel([action("add", a=5, b=5), answer("10")])
    make_agent(model).run_sync("q", on_event=events)
    started = events.of(ToolCallsStarted)[0]
    assert [(c.tool, c.args) for c in started.calls] == [("add", {"a": 5, "b": 5})]
    finished = events.of(ToolCallFinished)[0]
    assert finished.result.output == 10
    assert finished.error is None
    assert events.of(AnswerReady)[0].answer == "10"
    assert events.of(RunFinished)[0].result.answer == "10"
    assert len(events.of(ModelLoaded)) == 1


def test_a_run_that_cannot_start_leaves_nothing_to_cancel(
    make_agent: Callable[..., Agent], tmp_path: Path
) -> None:
    agent = make_agent(ScriptedModel(["<answer>x</answer>"]))
    with pytest.raises(GentError):
        asyncio.run(agent.run("task", transcript=tmp_path))  # a directory: refused up front
    assert agent._active == set()
