"""Lifecycle hooks around model and tool calls, and approval policies."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from gent_core import hookimpl
from gent_core.agent import Agent, ApprovalPolicy
from gent_core.context import ExecutionContext
from gent_core.messages import Message
from gent_core.model import ModelRequest, ModelResponse
from gent_core.plugins import GentPluginManager, ToolCallDecision
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
        "(plugin 'flaky-logger')\nPlugins implementing it: flaky-logger. Fix or disable the "
        "plugin (GENT_DISABLE_PLUGINS=name)."
    )
    assert model.requests == []
