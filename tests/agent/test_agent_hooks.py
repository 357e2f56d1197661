"""Lifecycle hooks around runs, steps, model and tool calls, and approval policies."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from gent_core import GentError, RunResult, StepRecord, hookimpl
from gent_core._agent import Agent, ApprovalPolicy
from gent_core._plugins import GentPluginManager, ToolCallDecision
from gent_core.context import ExecutionContext
from gent_core.errors import ModelError
from gent_core.messages import Message
from gent_core.model import Model, ModelChunk, ModelIdentity, ModelRequest, ModelResponse
from gent_core.testing import ScriptedModel
from gent_core.toolchain import ToolCall, ToolChainResult
from gent_core.tools import Tool, ToolResult

MakeAgent = Callable[..., Agent]


def action(tool_name: str, **args: Any) -> str:
    return f"<action>{json.dumps({'tool': tool_name, 'args': args})}</action>"


class Recorder:
    def __init__(self) -> None:
        self.seen: list[str] = []

    @hookimpl
    def gent_transform_messages(self, messages: list[Message], context: ExecutionContext) -> None:
        self.seen.append("transform_messages")
        messages.insert(1, Message.user("(injected by a plugin)"))

    @hookimpl
    def gent_before_model_call(self, request: ModelRequest, context: ExecutionContext) -> None:
        self.seen.append("before_model")
        request.temperature = 0.25

    @hookimpl
    def gent_after_model_call(
        self, request: ModelRequest, response: ModelResponse, context: ExecutionContext
    ) -> None:
        self.seen.append(f"after_model:{response.text[:8]}")

    @hookimpl
    def gent_after_tool_call(
        self, call: ToolCall, result: ToolResult, context: ExecutionContext
    ) -> ToolResult | None:
        self.seen.append(f"after_tool:{call.tool}")
        return ToolResult(output=f"{result.output} (checked)")

    @hookimpl
    def gent_transform_observation(
        self, result: ToolChainResult, context: ExecutionContext
    ) -> None:
        self.seen.append("observation")
        result.text += "\n(reviewed)"


def test_lifecycle_hooks_fire_and_can_modify(make_agent: MakeAgent) -> None:
    manager = GentPluginManager()
    recorder = Recorder()
    manager.register(recorder, name="recorder")
    model = ScriptedModel([action("add", a=1, b=2), "<answer>3</answer>"])
    result = make_agent(model, plugin_manager=manager).run_sync("q")
    assert result.answer == "3"
    assert recorder.seen == [
        "transform_messages", "before_model", "after_model:<action>", "after_tool:add",
        "observation", "transform_messages", "before_model", "after_model:<answer>",
    ]  # fmt: skip
    first = model.requests[0]
    assert first.temperature == 0.25
    assert first.messages[1].text == "(injected by a plugin)"
    observation = model.requests[1].messages[-1].text
    assert "3 (checked)" in observation
    assert observation.endswith("(reviewed)")


class Veto:
    @hookimpl
    def gent_before_tool_call(
        self, call: ToolCall, tool: Tool | None, context: ExecutionContext
    ) -> ToolCallDecision | None:
        if call.tool == "fail":
            return ToolCallDecision.deny("fail is forbidden here")
        if call.tool == "add":
            return ToolCallDecision.allow(ToolCall("add", {"a": 100, "b": 1}, call.id))
        return None


def test_a_hook_can_veto_or_rewrite_a_tool_call(make_agent: MakeAgent) -> None:
    manager = GentPluginManager()
    manager.register(Veto(), name="veto")
    model = ScriptedModel(
        [action("fail", reason="x"), action("add", a=1, b=1), "<answer>101</answer>"]
    )
    result = make_agent(model, plugin_manager=manager).run_sync("q")
    vetoed = result.steps[0].calls[0]
    assert vetoed.status == "error"
    assert vetoed.error is not None
    assert "fail is forbidden here" in vetoed.error
    assert "fail is forbidden here" in model.requests[1].messages[-1].text
    assert result.steps[1].calls[0].output == 101


def test_approval_policy_denies_asks_and_allows(make_agent: MakeAgent) -> None:
    asked: list[str] = []

    def ask(call: ToolCall) -> bool:
        asked.append(call.tool)
        return call.args.get("a") == 1

    policy = ApprovalPolicy(deny=["fail"], ask=["a*"], ask_callback=ask)
    model = ScriptedModel(
        [
            action("fail", reason="x"),
            action("add", a=2, b=2),
            action("add", a=1, b=1),
            "<answer>2</answer>",
        ]
    )
    result = make_agent(model, approval=policy).run_sync("q")
    statuses = [step.calls[0].status for step in result.steps[:3]]
    assert statuses == ["error", "error", "success"]
    assert "not allowed in this run" in (result.steps[0].calls[0].error or "")
    assert "did not approve" in (result.steps[1].calls[0].error or "")
    assert asked == ["add", "add"]


def test_ask_without_anyone_to_ask_denies(make_agent: MakeAgent) -> None:
    policy = ApprovalPolicy(default="ask")
    model = ScriptedModel([action("add", a=1, b=1), "<answer>?</answer>"])
    result = make_agent(model, approval=policy).run_sync("q")
    assert "needs approval and no one can approve it" in (result.steps[0].calls[0].error or "")


def test_policy_applies_to_the_run_but_never_joins_the_shared_manager(
    make_agent: MakeAgent,
) -> None:
    manager = GentPluginManager()
    during: list[set[object]] = []

    class Spy:
        @hookimpl
        def gent_before_model_call(self, request: ModelRequest, context: ExecutionContext) -> None:
            during.append(set(manager.get_plugins()))

    spy = Spy()
    manager.register(spy, name="spy")
    policy = ApprovalPolicy(deny=["add"])
    model = ScriptedModel([action("add", a=1, b=1), "<answer>x</answer>"])
    result = make_agent(model, plugin_manager=manager, approval=policy).run_sync("q")
    # the policy was registered for the run: it denied the call
    assert result.steps[0].calls[0].status == "error"
    assert "not allowed in this run" in (result.steps[0].calls[0].error or "")
    # ... in a manager of the run's own: the shared one never held it, during or after
    assert during == [{spy}, {spy}]
    assert manager.get_plugins() == {spy}


def test_verdict_precedence() -> None:
    policy = ApprovalPolicy(allow=["*"], ask=["write_*"], deny=["write_secret"], default="deny")
    assert policy.verdict("read") == "allow"
    assert policy.verdict("write_file") == "ask"
    assert policy.verdict("write_secret") == "deny"
    assert ApprovalPolicy(default="deny").verdict("anything") == "deny"


class Broken:
    @hookimpl
    def gent_before_model_call(self, request: ModelRequest, context: ExecutionContext) -> None:
        raise RuntimeError("the logging backend is down")


def test_a_failing_hook_stops_the_run_cleanly_naming_it(make_agent: MakeAgent) -> None:
    manager = GentPluginManager()
    manager.register(Broken(), name="flaky-logger")
    model = ScriptedModel(["<answer>never</answer>"])
    result = make_agent(model, plugin_manager=manager).run_sync("q")
    assert result.stop_reason == "plugin_error"
    assert not result.ok
    assert result.message == (
        "the gent_before_model_call hook failed: RuntimeError: the logging backend is down "
        "(plugin 'flaky-logger')\nRaised by the plugin flaky-logger. Fix or disable it "
        "(GENT_DISABLE_PLUGINS=flaky-logger)."
    )
    assert model.requests == []


# --------------------------------------------------------------------------- run hooks


class RunLog:
    """Records the run-level hooks: (hook, run id, what it received)."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, Any]] = []

    @hookimpl
    def gent_run_started(self, task: str, model: Model, context: ExecutionContext) -> None:
        self.seen.append(("started", context.run_id, (task, model)))

    @hookimpl
    def gent_step_finished(self, record: StepRecord, context: ExecutionContext) -> None:
        self.seen.append(("step", context.run_id, record))

    @hookimpl
    def gent_model_call_failed(
        self, request: ModelRequest, error: GentError, context: ExecutionContext
    ) -> None:
        self.seen.append(("model_failed", context.run_id, error))

    @hookimpl
    def gent_after_model_call(
        self, request: ModelRequest, response: ModelResponse, context: ExecutionContext
    ) -> None:
        self.seen.append(("after_model", context.run_id, response.text))

    @hookimpl
    def gent_run_finished(self, result: RunResult, context: ExecutionContext) -> None:
        self.seen.append(("finished", context.run_id, result))

    def kinds(self) -> list[str]:
        return [kind for kind, _, _ in self.seen]


def test_run_hooks_frame_the_run_with_one_run_id(make_agent: MakeAgent) -> None:
    manager = GentPluginManager()
    log = RunLog()
    manager.register(log, name="log")
    model = ScriptedModel([action("add", a=1, b=2), "<answer>3</answer>"])
    result = make_agent(model, plugin_manager=manager).run_sync("add them")
    assert log.kinds() == ["started", "after_model", "step", "after_model", "step", "finished"]
    assert len({run_id for _, run_id, _ in log.seen}) == 1
    task, seen_model = log.seen[0][2]
    assert (task, seen_model) == ("add them", model)
    steps = [record for kind, _, record in log.seen if kind == "step"]
    assert steps == result.steps
    assert [step.outcome for step in steps] == ["action", "answer"]
    assert steps[0].calls[0].output == 3
    assert log.seen[-1][2] is result


def test_concurrent_runs_have_their_own_run_ids(make_agent: MakeAgent) -> None:
    manager = GentPluginManager()
    log = RunLog()
    manager.register(log, name="log")
    first = make_agent(
        ScriptedModel([action("add", a=1, b=1), "<answer>a</answer>"]), plugin_manager=manager
    )
    second = make_agent(ScriptedModel(["<answer>b</answer>"]), plugin_manager=manager)

    async def both() -> list[RunResult]:
        return list(await asyncio.gather(first.run("one"), second.run("two")))

    results = asyncio.run(both())
    assert [result.answer for result in results] == ["a", "b"]
    by_run: dict[str, list[str]] = {}
    for kind, run_id, _ in log.seen:
        by_run.setdefault(run_id, []).append(kind)
    assert sorted(by_run.values(), key=len) == [
        ["started", "after_model", "step", "finished"],
        ["started", "after_model", "step", "after_model", "step", "finished"],
    ]
    tasks = {run_id: payload[0] for kind, run_id, payload in log.seen if kind == "started"}
    finished = {run_id: payload for kind, run_id, payload in log.seen if kind == "finished"}
    assert {tasks[run_id]: finished[run_id].answer for run_id in tasks} == {"one": "a", "two": "b"}


def test_a_failed_model_call_fires_its_hook_and_stops_the_run(make_agent: MakeAgent) -> None:
    manager = GentPluginManager()
    log = RunLog()
    manager.register(log, name="log")
    model = ScriptedModel([action("add", a=1, b=2)])  # nothing left for the second call
    result = make_agent(model, plugin_manager=manager).run_sync("q")
    assert result.stop_reason == "model_error"
    assert log.kinds() == ["started", "after_model", "step", "model_failed", "finished"]
    error = log.seen[3][2]
    assert isinstance(error, ModelError)
    assert "no output left" in str(error)
    assert log.seen[-1][2] is result


class FailingAt:
    """Raises in one run-level hook."""

    def __init__(self, hook: str) -> None:
        self.hook = hook

    def _maybe_fail(self, hook: str) -> None:
        if hook == self.hook:
            raise RuntimeError(f"{hook} is broken")

    @hookimpl
    def gent_run_started(self, task: str, model: Model, context: ExecutionContext) -> None:
        self._maybe_fail("gent_run_started")

    @hookimpl
    def gent_step_finished(self, record: StepRecord, context: ExecutionContext) -> None:
        self._maybe_fail("gent_step_finished")

    @hookimpl
    def gent_model_call_failed(
        self, request: ModelRequest, error: GentError, context: ExecutionContext
    ) -> None:
        self._maybe_fail("gent_model_call_failed")

    @hookimpl
    def gent_run_finished(self, result: RunResult, context: ExecutionContext) -> None:
        self._maybe_fail("gent_run_finished")


def run_with_failing(make_agent: MakeAgent, hook: str, outputs: list[str]) -> tuple[Any, RunLog]:
    manager = GentPluginManager()
    log = RunLog()
    manager.register(log, name="log")
    manager.register(FailingAt(hook), name="broken")  # registered last: called first
    model = ScriptedModel(outputs)
    return make_agent(model, plugin_manager=manager).run_sync("q"), log


def test_a_failing_run_started_hook_stops_the_run_before_its_first_step(
    make_agent: MakeAgent,
) -> None:
    result, log = run_with_failing(make_agent, "gent_run_started", ["<answer>x</answer>"])
    assert result.stop_reason == "plugin_error"
    assert result.steps == []
    assert result.message.startswith(
        "the gent_run_started hook failed: RuntimeError: gent_run_started is broken "
        "(plugin 'broken')\nRaised by the plugin broken. Fix or disable it "
        "(GENT_DISABLE_PLUGINS=broken)."
    )  # log implements it too, but did not raise: only the plugin that raised is named
    assert log.kinds() == ["finished"]  # the end still fires, so a plugin can close up


def test_a_failing_step_hook_stops_the_run_after_that_step(make_agent: MakeAgent) -> None:
    result, _ = run_with_failing(
        make_agent, "gent_step_finished", [action("add", a=1, b=1), "<answer>2</answer>"]
    )
    assert result.stop_reason == "plugin_error"
    assert len(result.steps) == 1
    assert "gent_step_finished is broken" in result.message


def test_a_failing_model_failed_hook_is_a_plugin_error(make_agent: MakeAgent) -> None:
    result, _ = run_with_failing(make_agent, "gent_model_call_failed", [])
    assert result.stop_reason == "plugin_error"
    assert "gent_model_call_failed is broken" in result.message


def test_a_failing_run_finished_hook_turns_the_result_into_a_plugin_error(
    make_agent: MakeAgent,
) -> None:
    result, _ = run_with_failing(make_agent, "gent_run_finished", ["<answer>x</answer>"])
    assert result.stop_reason == "plugin_error"
    assert result.answer is None
    assert not result.ok
    assert "gent_run_finished is broken" in result.message
    assert [step.answer for step in result.steps] == ["x"]  # the record keeps what happened


class SlowModel(ScriptedModel):
    """Blocks its first call until cancelled, after saying it started."""

    def __init__(self) -> None:
        super().__init__(["<answer>never</answer>"])
        self.started = asyncio.Event()

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        self.started.set()
        await asyncio.Event().wait()
        yield ModelChunk("")


def test_an_interrupted_run_still_fires_run_finished(make_agent: MakeAgent) -> None:
    manager = GentPluginManager()
    log = RunLog()
    manager.register(log, name="log")
    model = SlowModel()
    agent = make_agent(model, plugin_manager=manager)

    async def interrupt() -> None:
        task = asyncio.ensure_future(agent.run("q"))
        await model.started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(interrupt())
    assert log.kinds() == ["started", "finished"]
    interrupted = log.seen[-1][2]
    assert interrupted.stop_reason == "cancelled"
    assert interrupted.message == "the run was interrupted"


def test_the_context_carries_the_agents_redactor(make_agent: MakeAgent) -> None:
    seen: list[str] = []

    class Peek:
        @hookimpl
        def gent_run_started(self, task: str, model: Model, context: ExecutionContext) -> None:
            seen.append(context.redact("key sk-abcdef123456 here"))

    manager = GentPluginManager()
    manager.register(Peek(), name="peek")
    masked = make_agent(
        ScriptedModel(["<answer>x</answer>"]),
        plugin_manager=manager,
        redact=lambda text: text.replace("sk-abcdef123456", "***"),
    )
    masked.run_sync("q")
    make_agent(ScriptedModel(["<answer>x</answer>"]), plugin_manager=manager).run_sync("q")
    assert seen == ["key *** here", "key sk-abcdef123456 here"]


def test_a_model_names_itself_for_telemetry() -> None:
    assert ScriptedModel([]).identity() == ModelIdentity("scripted", "scripted", "chat")

    class Plain(ScriptedModel):
        def identity(self) -> ModelIdentity:
            return Model.identity(self)

    assert Plain([]).identity() == ModelIdentity(provider="Plain", name=None, operation="chat")
