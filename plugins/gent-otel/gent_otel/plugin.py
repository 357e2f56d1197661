"""The ``otel`` plugin: gent's lifecycle hooks, turned into OpenTelemetry spans.

Cheap to import: nothing of OpenTelemetry loads until a run starts with tracing on
(:mod:`gent_otel.settings`). A run that starts with tracing off leaves no state, and every
later hook of that run returns at once.

A run's spans live in ``context.state`` (one :class:`~gent_otel.spans.RunTrace` per run), so
concurrent runs never mix. Tool calls are paired by a context variable: the before and after
hooks of one call run in the same task (the calls of an action run in tasks of their own), and
the hooks are wrappers, so the span sees the final decision and the final result whatever the
other plugins return.

Tracing never fails a run: an error inside a hook here is logged once as a warning and the
run goes on (an exporter's failures are the SDK's warnings, in its own thread).
"""

from __future__ import annotations

import contextvars
import dataclasses
import logging
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from gent_core import hookimpl

if TYPE_CHECKING:
    from opentelemetry.trace import Span

    from gent_core import (
        ExecutionContext,
        GentError,
        Model,
        ModelRequest,
        ModelResponse,
        RunResult,
        Tool,
        ToolCall,
        ToolCallDecision,
        ToolResult,
    )
    from gent_otel.spans import RunTrace

STATE_KEY = "gent_otel.run"
"""Where a traced run keeps its :class:`~gent_otel.spans.RunTrace` in ``context.state``."""

_logger = logging.getLogger("gent_otel")
_warned: set[str] = set()
_current_tool: contextvars.ContextVar[tuple[str, Span] | None] = contextvars.ContextVar(
    "gent_otel_tool", default=None
)


def _trace(context: ExecutionContext) -> RunTrace | None:
    found: RunTrace | None = context.state.get(STATE_KEY)
    return found


def _failed(hook: str, error: BaseException) -> None:
    """Report a failure of gent-otel itself, once per hook, and go on."""
    if hook not in _warned:
        _warned.add(hook)
        _logger.warning(
            "gent-otel: %s failed (%s: %s); this run's trace may be incomplete",
            hook,
            type(error).__name__,
            error,
        )


@hookimpl
def gent_run_started(task: str, model: Model, context: ExecutionContext) -> None:
    """Open the run's span when tracing is on."""
    try:
        from gent_otel.provider import tracer

        found = tracer()
        if found is None:
            return
        from gent_otel.settings import capture_content
        from gent_otel.spans import RunTrace

        context.state[STATE_KEY] = RunTrace(
            found, context.run_id, task, model, context.redact, capture_content()
        )
    except Exception as error:  # noqa: BLE001 - tracing never fails a run
        _failed("gent_run_started", error)


@hookimpl(wrapper=True)
def gent_run_finished(result: RunResult, context: ExecutionContext) -> Generator[None, Any, Any]:
    """Close the run's span (and any still open) with the result, before the other plugins
    see it (a plugin that raises here cannot leave the span open).
    """
    trace = context.state.pop(STATE_KEY, None)
    if trace is not None:
        try:
            trace.finished(result)
        except Exception as error:  # noqa: BLE001 - tracing never fails a run
            _failed("gent_run_finished", error)
    return (yield)


@hookimpl(wrapper=True)
def gent_before_model_call(
    request: ModelRequest, context: ExecutionContext
) -> Generator[None, Any, Any]:
    """Open a model call's span once every plugin has had its say on the request."""
    outcome = yield
    trace = _trace(context)
    if trace is not None:
        try:
            trace.model_started(request)
        except Exception as error:  # noqa: BLE001 - tracing never fails a run
            _failed("gent_before_model_call", error)
    return outcome


@hookimpl(wrapper=True)
def gent_after_model_call(
    request: ModelRequest, response: ModelResponse, context: ExecutionContext
) -> Generator[None, Any, Any]:
    """Close a model call's span with the response (before the other plugins see it)."""
    trace = _trace(context)
    if trace is not None:
        try:
            trace.model_finished(response)
        except Exception as error:  # noqa: BLE001 - tracing never fails a run
            _failed("gent_after_model_call", error)
    return (yield)


@hookimpl(wrapper=True)
def gent_model_call_failed(
    request: ModelRequest, error: GentError, context: ExecutionContext
) -> Generator[None, Any, Any]:
    """Close a model call's span with its error."""
    trace = _trace(context)
    if trace is not None:
        try:
            trace.model_failed(error)
        except Exception as problem:  # noqa: BLE001 - tracing never fails a run
            _failed("gent_model_call_failed", problem)
    return (yield)


@hookimpl(wrapper=True)
def gent_before_tool_call(
    call: ToolCall, tool: Tool | None, context: ExecutionContext
) -> Generator[None, Any, Any]:
    """Open a tool call's span once the policies have decided (a replacement call is the one
    traced).
    """
    trace = _trace(context)
    if trace is None:
        return (yield)
    decision: ToolCallDecision | None = None
    try:
        decision = yield
    finally:
        replacement = getattr(decision, "call", None)
        running = call if replacement is None else replacement
        if running is not call and not running.id:
            running = dataclasses.replace(running, id=call.id)
        try:
            span = trace.tool_started(running, tool)
            _current_tool.set((context.run_id, span))
        except Exception as error:  # noqa: BLE001 - tracing never fails a run
            _failed("gent_before_tool_call", error)
    return decision


@hookimpl(wrapper=True)
def gent_after_tool_call(
    call: ToolCall, result: ToolResult, context: ExecutionContext
) -> Generator[None, Any, Any]:
    """Close a tool call's span with the final result (after any replacement)."""
    trace = _trace(context)
    current = _current_tool.get()
    if trace is None or current is None or current[0] != context.run_id:
        return (yield)
    _current_tool.set(None)
    span = current[1]
    try:
        replaced: ToolResult | None = yield
    except Exception as error:
        _close_failed(trace, span, error)
        raise
    try:
        trace.tool_finished(span, result if replaced is None else replaced)
    except Exception as error:  # noqa: BLE001 - tracing never fails a run
        _failed("gent_after_tool_call", error)
    return replaced


def _close_failed(trace: RunTrace, span: Span, error: BaseException) -> None:
    try:
        trace.tool_failed(span, error)
    except Exception as problem:  # noqa: BLE001 - tracing never fails a run
        _failed("gent_after_tool_call", problem)
