"""The transcript is written by a run observer among the run's hooks: an interrupted run gets
no end line and stays resumable, another plugin's failing hook cannot keep a step or the end
out of it, and a file that fails mid-run is one warning while the run goes on."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from gent_core._agent import Agent
from gent_core.context import ExecutionContext
from gent_core.hookspecs import hookimpl
from gent_core.model import ModelChunk, ModelRequest
from gent_core.records import RunResult, StepRecord
from gent_core.testing import ScriptedModel
from tests.architecture.imports import import_graph

MakeAgent = Callable[..., Agent]

ACTION = '<action>{"tool": "add", "args": {"a": 1, "b": 1}}</action>'


def kinds(path: Path) -> list[str]:
    return [json.loads(line)["type"] for line in path.read_text().splitlines()]


class InterruptedModel(ScriptedModel):
    """Acts once, then Ctrl-C arrives while the second output streams."""

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        if len(self.requests) == 1:
            raise KeyboardInterrupt
        async for chunk in super().stream(request):
            yield chunk


class Finished:
    """Keeps the result every run hands to ``gent_run_finished``."""

    def __init__(self) -> None:
        self.results: list[RunResult] = []

    @hookimpl
    def gent_run_finished(self, result: RunResult, context: ExecutionContext) -> None:
        self.results.append(result)


def test_an_interrupted_run_gets_no_end_line_and_resumes(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    path = tmp_path / "run.jsonl"
    finished = Finished()
    agent = make_agent(InterruptedModel([ACTION, "unused"]), middleware=[finished])
    with pytest.raises(KeyboardInterrupt):
        agent.run_sync("q", transcript=path)
    assert kinds(path) == ["run", "step"]
    assert [(r.stop_reason, r.interrupted) for r in finished.results] == [("cancelled", True)]
    resumed = make_agent(ScriptedModel(["<answer>2</answer>"])).run_sync
    del resumed
    result = asyncio.run(make_agent(ScriptedModel(["<answer>2</answer>"])).resume(path))
    assert result.answer == "2"
    assert kinds(path) == ["run", "step", "resume", "step", "end"]


def test_a_run_cancelled_through_the_agent_reaches_its_end(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    path = tmp_path / "run.jsonl"
    holder: list[Agent] = []

    class CancelAfterStep:
        @hookimpl
        def gent_step_finished(self, record: StepRecord, context: ExecutionContext) -> None:
            holder[0].cancel("enough")

    agent = make_agent(
        ScriptedModel([ACTION, "<answer>2</answer>"]), middleware=[CancelAfterStep()]
    )
    holder.append(agent)
    result = agent.run_sync("q", transcript=path)
    assert (result.stop_reason, result.interrupted) == ("cancelled", False)
    end = json.loads(path.read_text().splitlines()[-1])
    assert (end["type"], end["stop_reason"]) == ("end", "cancelled")


class FailingHooks:
    def __init__(self, hook: str) -> None:
        self.hook = hook

    @hookimpl
    def gent_step_finished(self, record: StepRecord, context: ExecutionContext) -> None:
        if self.hook == "gent_step_finished":
            raise RuntimeError("step hook broke")

    @hookimpl
    def gent_run_finished(self, result: RunResult, context: ExecutionContext) -> None:
        if self.hook == "gent_run_finished":
            raise RuntimeError("end hook broke")


@pytest.mark.parametrize("hook", ["gent_step_finished", "gent_run_finished"])
def test_another_plugins_failing_hook_keeps_the_step_and_the_end(
    make_agent: MakeAgent, tmp_path: Path, hook: str
) -> None:
    path = tmp_path / "run.jsonl"
    agent = make_agent(ScriptedModel(["<answer>2</answer>"]), middleware=[FailingHooks(hook)])
    result = agent.run_sync("q", transcript=path)
    assert result.stop_reason == "plugin_error"
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [record["type"] for record in records] == ["run", "step", "end"]
    assert records[1]["answer"] == "2"
    end = records[-1]
    # The end line is the result the run returned, the failing plugin's error included.
    assert (end["stop_reason"], end["message"], end["answer"]) == (
        "plugin_error",
        result.message,
        None,
    )
    assert "broke" in end["message"]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_a_transcript_that_fails_mid_run_is_one_warning_and_the_run_goes_on(
    make_agent: MakeAgent, caplog: pytest.LogCaptureFixture
) -> None:
    model = ScriptedModel([ACTION, "<answer>2</answer>"])
    with caplog.at_level(logging.WARNING, logger="gent.transcript"):
        result = make_agent(model).run_sync("q", transcript="/dev/full")
    assert result.answer == "2"
    warnings = [r.getMessage() for r in caplog.records if r.name == "gent.transcript"]
    assert warnings == [
        "cannot write the transcript /dev/full: no space left on device; "
        "the rest of the run is not written to it"
    ]


def test_the_loop_imports_no_transcript_code() -> None:
    graph = import_graph()
    loop = {module for module in graph if module.startswith("gent_core._agent.")}
    assert "gent_core._agent.run" in loop
    reaching: dict[str, Any] = {
        module: sorted(t for t in graph[module] if t.startswith("gent_core._transcript"))
        for module in loop
    }
    # Only the Agent opens the file it is given and registers its writer among the run's hooks.
    assert {module for module, found in reaching.items() if found} == {"gent_core._agent.agent"}
