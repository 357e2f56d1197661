"""The spans of whole agent runs on the scripted model, read back from an in-memory exporter:
names, parent/child links, GenAI attributes and statuses."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode
from otel_helpers import (
    MakeAgent,
    Rendezvous,
    action,
    attributes,
    named,
    parent_id,
    span_id,
    trace_id,
)

from gent_core import (
    ApprovalPolicy,
    ExecutionContext,
    GentPluginManager,
    Tool,
    ToolCall,
    ToolCallDecision,
    hookimpl,
)
from gent_core.context import Limits
from gent_core.model import ModelChunk, ModelRequest
from gent_core.testing import ScriptedModel


def test_a_run_with_a_tool_call(make_agent: MakeAgent, exporter: InMemorySpanExporter) -> None:
    model = ScriptedModel([action(("add", {"a": 17, "b": 23})), "<answer>40</answer>"])
    result = make_agent(model).run_sync("What is 17 + 23?")
    assert result.answer == "40"
    spans = exporter.get_finished_spans()
    assert [span.name for span in spans] == [
        "chat scripted",
        "execute_tool add",
        "chat scripted",
        "invoke_agent gent",
    ]
    run, chats, tools = spans[-1], named(spans, "chat "), named(spans, "execute_tool ")
    assert run.parent is None
    assert run.kind is SpanKind.INTERNAL
    assert [parent_id(span) for span in [*chats, *tools]] == [span_id(run)] * 3
    assert {trace_id(span) for span in spans} == {trace_id(run)}

    run_attributes = attributes(run)
    assert len(run_attributes.pop("gent.run.id")) == 32
    assert run_attributes == {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": "gent",
        "gen_ai.provider.name": "scripted",
        "gen_ai.request.model": "scripted",
        "gent.task.chars": len("What is 17 + 23?"),
        "gent.run.stop_reason": "answer",
        "gent.run.steps": 2,
        "gent.run.tool_calls": 1,
        "gen_ai.usage.input_tokens": result.stats.input_tokens,
        "gen_ai.usage.output_tokens": result.stats.output_tokens,
    }
    assert run.status.status_code is StatusCode.UNSET

    for step, chat in enumerate(chats, start=1):
        assert chat.kind is SpanKind.CLIENT
        stats = result.steps[step - 1].model
        assert attributes(chat) == {
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": "scripted",
            "gen_ai.request.model": "scripted",
            "gent.step": step,
            "gen_ai.usage.input_tokens": stats.input_tokens,
            "gen_ai.usage.output_tokens": stats.output_tokens,
            "gen_ai.response.finish_reasons": (stats.finish_reason,),
            "gent.output.chars": len(result.steps[step - 1].output),
        }
        assert chat.status.status_code is StatusCode.UNSET

    (call,) = tools
    assert attributes(call) == {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "add",
        "gen_ai.tool.type": "function",
        "gen_ai.tool.call.id": "call_0",
        "gen_ai.tool.description": "Add two integers.",
        "gent.tool.arguments.chars": len('{"a": 17, "b": 23}'),
        "gent.tool.result.chars": 2,
    }
    assert call.status.status_code is StatusCode.UNSET
    # the spans follow one another: model, tool, model, inside the run
    assert run.start_time is not None and run.end_time is not None
    assert chats[0].start_time is not None and chats[0].end_time is not None
    assert call.start_time is not None
    assert run.start_time <= chats[0].start_time <= chats[0].end_time <= call.start_time
    assert call.end_time is not None and chats[1].start_time is not None
    assert call.end_time <= chats[1].start_time <= run.end_time


def test_erroring_and_denied_tools_have_error_statuses(
    make_agent: MakeAgent, exporter: InMemorySpanExporter
) -> None:
    model = ScriptedModel(
        [
            action(("fail", {"reason": "disk on fire"}), ("add", {"a": 1, "b": 1})),
            "<answer>done</answer>",
        ]
    )
    policy = ApprovalPolicy(deny=["add"])
    result = make_agent(model, approval=policy).run_sync("q")
    assert result.ok
    spans = named(exporter.get_finished_spans(), "execute_tool ")
    denied, failed = sorted(spans, key=lambda span: span.name)
    assert failed.name == "execute_tool fail"
    assert failed.status.status_code is StatusCode.ERROR
    assert "disk on fire" in (failed.status.description or "")
    assert attributes(failed)["error.type"] == "ToolExecutionError"
    assert "gent.tool.result.chars" not in attributes(failed)
    assert denied.name == "execute_tool add"
    assert denied.status.status_code is StatusCode.ERROR
    assert attributes(denied)["error.type"] == "ToolCallDeniedError"
    assert "not allowed in this run" in (denied.status.description or "")
    run = named(exporter.get_finished_spans(), "invoke_agent")[0]
    assert run.status.status_code is StatusCode.UNSET  # the run still answered


def test_concurrent_calls_of_one_action_are_overlapping_siblings(
    make_agent: MakeAgent, exporter: InMemorySpanExporter
) -> None:
    meet = Rendezvous().make()
    model = ScriptedModel(
        [action(("meet", {"name": "a"}), ("meet", {"name": "b"})), "<answer>ok</answer>"]
    )
    result = make_agent(model, tools=[meet]).run_sync("q")
    assert [call.output for call in result.steps[0].calls] == ["met a", "met b"]
    spans = exporter.get_finished_spans()
    run = named(spans, "invoke_agent")[0]
    first, second = named(spans, "execute_tool meet")
    assert parent_id(first) == parent_id(second) == span_id(run)
    ids = {attributes(first)["gen_ai.tool.call.id"], attributes(second)["gen_ai.tool.call.id"]}
    assert ids == {"call_0", "call_1"}
    # each call returned only once both were running: the two spans overlap
    assert first.start_time is not None and second.start_time is not None
    assert first.end_time is not None and second.end_time is not None
    assert first.start_time < second.end_time and second.start_time < first.end_time


def test_a_model_error_marks_the_model_call_and_the_run(
    make_agent: MakeAgent, exporter: InMemorySpanExporter
) -> None:
    model = ScriptedModel([action(("add", {"a": 1, "b": 2}))])  # no second output
    result = make_agent(model).run_sync("q")
    assert result.stop_reason == "model_error"
    spans = exporter.get_finished_spans()
    ok_chat, failed_chat = named(spans, "chat ")
    assert ok_chat.status.status_code is StatusCode.UNSET
    assert failed_chat.status.status_code is StatusCode.ERROR
    assert attributes(failed_chat)["error.type"] == "ModelError"
    assert "no output left" in (failed_chat.status.description or "")
    assert "gen_ai.usage.input_tokens" not in attributes(failed_chat)
    run = named(spans, "invoke_agent")[0]
    assert run.status.status_code is StatusCode.ERROR
    assert attributes(run)["error.type"] == "model_error"
    assert attributes(run)["gent.run.stop_reason"] == "model_error"
    assert run.status.description == result.message


def test_a_run_stopped_by_max_steps_is_an_error(
    make_agent: MakeAgent, exporter: InMemorySpanExporter
) -> None:
    model = ScriptedModel([action(("add", {"a": n, "b": 1})) for n in range(3)])
    result = make_agent(model, limits=Limits(max_steps=3)).run_sync("q")
    assert result.stop_reason == "max_steps"
    spans = exporter.get_finished_spans()
    assert len(named(spans, "chat ")) == len(named(spans, "execute_tool ")) == 3
    run = named(spans, "invoke_agent")[0]
    assert run.status.status_code is StatusCode.ERROR
    assert attributes(run)["error.type"] == "max_steps"
    assert attributes(run)["gent.run.steps"] == 3
    assert "limit of 3 steps" in (run.status.description or "")


class Silent(ScriptedModel):
    """A back end that reports no token counts."""

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        async for chunk in super().stream(request):
            yield ModelChunk(chunk.text, None, chunk.finish_reason)


def test_tokens_are_absent_not_zero_when_the_back_end_reports_none(
    make_agent: MakeAgent, exporter: InMemorySpanExporter
) -> None:
    result = make_agent(Silent(["<answer>x</answer>"])).run_sync("q")
    assert result.ok
    chat, run = exporter.get_finished_spans()
    for span in (chat, run):
        assert "gen_ai.usage.input_tokens" not in attributes(span)
        assert "gen_ai.usage.output_tokens" not in attributes(span)
    assert attributes(chat)["gen_ai.response.finish_reasons"] == ("stop",)


def test_concurrent_runs_get_separate_traces(
    make_agent: MakeAgent, exporter: InMemorySpanExporter
) -> None:
    first = make_agent(
        ScriptedModel([action(("add", {"a": 1, "b": 1})), "<answer>2</answer>"], chunk_size=1)
    )
    second = make_agent(
        ScriptedModel([action(("echo", {"text": "hi"})), "<answer>hi</answer>"], chunk_size=1)
    )

    async def both() -> None:
        results = await asyncio.gather(first.run("one plus one"), second.run("say hi"))
        assert [result.answer for result in results] == ["2", "hi"]

    asyncio.run(both())
    spans = exporter.get_finished_spans()
    runs = {attributes(span)["gent.task.chars"]: span for span in named(spans, "invoke_agent")}
    assert set(runs) == {len("one plus one"), len("say hi")}
    one, hi = runs[len("one plus one")], runs[len("say hi")]
    assert trace_id(one) != trace_id(hi)
    assert attributes(one)["gent.run.id"] != attributes(hi)["gent.run.id"]
    for run, tool_name in ((one, "add"), (hi, "echo")):
        children = [span for span in spans if parent_id(span) == span_id(run)]
        assert sorted(span.name for span in children) == [
            "chat scripted",
            "chat scripted",
            f"execute_tool {tool_name}",
        ]
        assert {trace_id(span) for span in children} == {trace_id(run)}
        steps = sorted(attributes(span)["gent.step"] for span in named(children, "chat "))
        assert steps == [1, 2]
    assert len(spans) == 8


def test_content_is_recorded_only_when_asked(
    make_agent: MakeAgent, exporter: InMemorySpanExporter, monkeypatch: pytest.MonkeyPatch
) -> None:
    outputs = [action(("echo", {"text": "tea"})), "<answer>Tea, please</answer>"]
    make_agent(ScriptedModel(outputs)).run_sync("What to drink?")
    content_keys = {
        "gen_ai.input.messages",
        "gen_ai.output.messages",
        "gen_ai.tool.call.arguments",
        "gen_ai.tool.call.result",
    }
    for span in exporter.get_finished_spans():
        assert not content_keys & set(attributes(span))
    exporter.clear()

    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true")
    make_agent(ScriptedModel(outputs)).run_sync("What to drink?")
    spans = exporter.get_finished_spans()
    run = attributes(named(spans, "invoke_agent")[0])
    assert json.loads(run["gen_ai.input.messages"]) == [
        {"role": "user", "parts": [{"type": "text", "content": "What to drink?"}]}
    ]
    assert json.loads(run["gen_ai.output.messages"])[0]["parts"][0]["content"] == "Tea, please"
    first_chat = attributes(named(spans, "chat ")[0])
    sent = json.loads(first_chat["gen_ai.input.messages"])
    assert [message["role"] for message in sent] == ["system", "user"]
    assert sent[1]["parts"] == [{"type": "text", "content": "What to drink?"}]
    output = json.loads(first_chat["gen_ai.output.messages"])[0]
    assert output["parts"][0]["content"] == outputs[0]
    assert output["finish_reason"] == "stop"
    tool = attributes(named(spans, "execute_tool ")[0])
    assert json.loads(tool["gen_ai.tool.call.arguments"]) == {"text": "tea"}
    assert json.loads(tool["gen_ai.tool.call.result"]) == {"echo": "tea"}


def test_a_tracing_failure_never_fails_the_run(
    make_agent: MakeAgent, exporter: InMemorySpanExporter, caplog: pytest.LogCaptureFixture
) -> None:
    class Nameless(ScriptedModel):
        def identity(self) -> object:  # type: ignore[override]
            raise RuntimeError("no identity")

    result = make_agent(Nameless(["<answer>fine</answer>"])).run_sync("q")
    assert result.answer == "fine"
    assert exporter.get_finished_spans() == ()
    assert "gent-otel: gent_run_started failed (RuntimeError: no identity)" in caplog.text


class Rewrite:
    """Replaces every call to ``add`` with ``add(100, 1)``, keeping its id."""

    @hookimpl
    def gent_before_tool_call(
        self, call: ToolCall, tool: Tool | None, context: ExecutionContext
    ) -> ToolCallDecision | None:
        if call.tool == "add":
            return ToolCallDecision.allow(ToolCall("add", {"a": 100, "b": 1}))
        return None


def test_a_rewritten_call_is_traced_as_it_ran(
    make_agent: MakeAgent, exporter: InMemorySpanExporter, manager: GentPluginManager
) -> None:
    manager.register(Rewrite(), name="rewrite")
    model = ScriptedModel([action(("add", {"a": 1, "b": 1})), "<answer>101</answer>"])
    result = make_agent(model).run_sync("q")
    assert result.steps[0].calls[0].output == 101
    (call,) = named(exporter.get_finished_spans(), "execute_tool ")
    assert attributes(call)["gen_ai.tool.call.id"] == "call_0"
    assert attributes(call)["gent.tool.arguments.chars"] == len('{"a": 100, "b": 1}')
    assert attributes(call)["gent.tool.result.chars"] == len("101")
