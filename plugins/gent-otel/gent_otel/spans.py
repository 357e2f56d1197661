"""The spans of one run, following OpenTelemetry's GenAI semantic conventions.

========================== ============================== ==================================
span                       when                           parent
========================== ============================== ==================================
``invoke_agent gent``      the run (``INTERNAL``)         the span current when it started
``chat {model}`` (or       each model call (``CLIENT``)   the run's span
``text_completion {model}``)
``execute_tool {tool}``    each tool call (``INTERNAL``)  the run's span (the calls of one
                                                          action are siblings)
========================== ============================== ==================================

Attributes (``gen_ai.*`` from the conventions, ``gent.*`` gent's own):

* every span: ``gen_ai.operation.name`` (``invoke_agent``, ``chat`` / ``text_completion``,
  ``execute_tool``), ``gen_ai.provider.name`` and ``gen_ai.request.model`` (from
  :meth:`~gent_core.model.Model.identity`; not on tool spans);
* the run: ``gen_ai.agent.name`` (``gent``), ``gent.run.id`` (``ExecutionContext.run_id``),
  ``gent.task.chars``; at the end ``gent.run.stop_reason``, ``gent.run.steps``,
  ``gent.run.tool_calls``, ``gen_ai.usage.input_tokens`` / ``output_tokens`` (totals, absent
  when no call reported any);
* a model call: ``gen_ai.request.max_tokens``, ``.temperature`` (when set),
  ``gen_ai.usage.input_tokens`` / ``output_tokens`` (absent, not 0, when the back end
  reported none), ``gen_ai.response.finish_reasons`` (gent's own reasons included:
  ``section_closed``, ``output_limit``, ``time_limit``), ``gent.step``, ``gent.output.chars``;
* a tool call: ``gen_ai.tool.name``, ``gen_ai.tool.call.id``, ``gen_ai.tool.type``
  (``function``), ``gen_ai.tool.description``, ``gent.tool.arguments.chars``,
  ``gent.tool.result.chars`` (of a successful result).

Errors: a run that did not answer, a model call that failed and a tool call that returned an
error or was denied have the status ``ERROR`` (its description the message, credentials
masked) and ``error.type``: the stop reason of a run (``max_steps``, ``model_error``...), the
error class of a call (``ModelError``, ``ToolExecutionError``, ``ToolCallDeniedError``...).

Content (opt-in, :mod:`gent_otel.content`): ``gen_ai.input.messages`` /
``gen_ai.output.messages`` on the run (the task, the answer) and on model calls,
``gen_ai.tool.call.arguments`` / ``gen_ai.tool.call.result`` on tool calls.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.trace import SpanKind, Status, StatusCode

from gent_otel import content

if TYPE_CHECKING:
    from opentelemetry.trace import Span, Tracer

    from gent_core import RunResult, Tool, ToolCall, ToolResult
    from gent_core.errors import GentError
    from gent_core.model import Model, ModelRequest, ModelResponse

__all__ = ["AGENT_NAME", "RunTrace"]

AGENT_NAME = "gent"
"""``gen_ai.agent.name`` of every run (an agent has no name of its own in gent)."""

Redact = Callable[[str], str]


def _error(span: Span, kind: str, message: str) -> None:
    span.set_attribute("error.type", kind)
    span.set_status(Status(StatusCode.ERROR, message))


class RunTrace:
    """The open spans of one run and how each is written.

    Args:
        tracer: Where spans are made.
        run_id: The run's ``ExecutionContext.run_id``.
        task: The task.
        model: The model back end.
        redact: The run's redactor (``ExecutionContext.redact``).
        capture: Whether content is recorded.
    """

    def __init__(
        self,
        tracer: Tracer,
        run_id: str,
        task: str,
        model: Model,
        redact: Redact,
        capture: bool,
    ) -> None:
        self.tracer = tracer
        self.redact = redact
        self.capture = capture
        identity = model.identity()
        self.common: dict[str, str] = {"gen_ai.provider.name": identity.provider}
        if identity.name:
            self.common["gen_ai.request.model"] = identity.name
        self.operation = identity.operation
        self.model_name = identity.name
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": AGENT_NAME,
            **self.common,
            "gent.run.id": run_id,
            "gent.task.chars": len(task),
        }
        if capture:
            attributes["gen_ai.input.messages"] = content.task_messages(task)
        self.span = tracer.start_span(
            f"invoke_agent {AGENT_NAME}", kind=SpanKind.INTERNAL, attributes=attributes
        )
        self.parent = trace.set_span_in_context(self.span)
        self._token: object | None = otel_context.attach(self.parent)
        self.model_span: Span | None = None
        self._model_token: object | None = None
        self.open_tools: set[Span] = set()
        self.steps = 0

    # ------------------------------------------------------------------ model calls

    def model_started(self, request: ModelRequest) -> None:
        """Open the span of a model call, about to be sent."""
        self._end_model_span("the model call did not finish")
        self.steps += 1
        name = f"{self.operation} {self.model_name}" if self.model_name else self.operation
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": self.operation,
            **self.common,
            "gent.step": self.steps,
        }
        if request.max_tokens is not None:
            attributes["gen_ai.request.max_tokens"] = request.max_tokens
        if request.temperature is not None:
            attributes["gen_ai.request.temperature"] = request.temperature
        if self.capture:
            attributes["gen_ai.input.messages"] = content.input_messages(
                request.messages, self.redact
            )
        self.model_span = self.tracer.start_span(
            name, context=self.parent, kind=SpanKind.CLIENT, attributes=attributes
        )
        self._model_token = otel_context.attach(trace.set_span_in_context(self.model_span))

    def model_finished(self, response: ModelResponse) -> None:
        """Close the span of a model call with its response."""
        span = self.model_span
        if span is None:
            return
        usage = response.usage
        if usage.input_tokens is not None:
            span.set_attribute("gen_ai.usage.input_tokens", usage.input_tokens)
        if usage.output_tokens is not None:
            span.set_attribute("gen_ai.usage.output_tokens", usage.output_tokens)
        if response.finish_reason:
            span.set_attribute("gen_ai.response.finish_reasons", [response.finish_reason])
        span.set_attribute("gent.output.chars", len(response.text))
        if self.capture:
            span.set_attribute(
                "gen_ai.output.messages",
                content.output_messages(response.text, response.finish_reason, self.redact),
            )
        self._end_model_span(None)

    def model_failed(self, error: GentError) -> None:
        """Close the span of a model call that failed."""
        if self.model_span is not None:
            self._end_model_span(str(error), type(error).__name__)

    def _end_model_span(self, problem: str | None, kind: str = "_OTHER") -> None:
        span, self.model_span = self.model_span, None
        token, self._model_token = self._model_token, None
        if token is not None:
            _detach(token)
        if span is None:
            return
        if problem is not None:
            _error(span, kind, self.redact(problem))
        span.end()

    # ------------------------------------------------------------------ tool calls

    def tool_started(self, call: ToolCall, tool: Tool | None) -> Span:
        """Open the span of one tool call (a sibling of the other calls of its action)."""
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": call.tool,
            "gen_ai.tool.type": "function",
            "gent.tool.arguments.chars": content.chars(call.args),
        }
        if call.id:
            attributes["gen_ai.tool.call.id"] = call.id
        description = getattr(tool, "description", None) if tool is not None else None
        if isinstance(description, str) and description:
            attributes["gen_ai.tool.description"] = self.redact(description)
        if self.capture:
            attributes["gen_ai.tool.call.arguments"] = self.redact(content.text_of_value(call.args))
        span = self.tracer.start_span(
            f"execute_tool {call.tool}",
            context=self.parent,
            kind=SpanKind.INTERNAL,
            attributes=attributes,
        )
        self.open_tools.add(span)
        return span

    def tool_finished(self, span: Span, result: ToolResult) -> None:
        """Close the span of one tool call with its result."""
        if result.ok:
            span.set_attribute("gent.tool.result.chars", content.chars(result.output))
            if self.capture:
                span.set_attribute(
                    "gen_ai.tool.call.result", self.redact(content.text_of_value(result.output))
                )
        else:
            error = result.error
            kind = type(error).__name__ if error is not None else "_OTHER"
            message = str(error) if error is not None else "the tool reported an error"
            _error(span, kind, self.redact(message))
            if self.capture and error is not None:
                model_message = getattr(error, "model_message", None) or str(error)
                span.set_attribute("gen_ai.tool.call.result", self.redact(model_message))
        self._end_tool_span(span)

    def _end_tool_span(self, span: Span) -> None:
        self.open_tools.discard(span)
        span.end()

    def tool_failed(self, span: Span, problem: BaseException) -> None:
        """Close the span of a tool call whose result never came (a hook raised)."""
        _error(span, type(problem).__name__, self.redact(str(problem)))
        self._end_tool_span(span)

    # ------------------------------------------------------------------ the run

    def finished(self, result: RunResult) -> None:
        """Close the run's span (and a model call's still open) with the run's result."""
        self._end_model_span("the run ended during the model call")
        for tool_span in list(self.open_tools):
            _error(tool_span, "_OTHER", "the run ended before the tool call's result")
            self._end_tool_span(tool_span)
        span = self.span
        stats = result.stats
        span.set_attribute("gent.run.stop_reason", result.stop_reason)
        span.set_attribute("gent.run.steps", stats.steps)
        span.set_attribute("gent.run.tool_calls", sum(stats.tool_calls.values()))
        if stats.tokens_reported:
            span.set_attribute("gen_ai.usage.input_tokens", stats.input_tokens)
            span.set_attribute("gen_ai.usage.output_tokens", stats.output_tokens)
        if result.ok:
            if self.capture:
                answer = result.steps[-1].answer if result.steps else result.answer
                span.set_attribute("gen_ai.output.messages", content.answer_messages(answer))
        else:
            _error(span, result.stop_reason, self.redact(result.message))
        token, self._token = self._token, None
        if token is not None:
            _detach(token)
        span.end()


def _detach(token: object) -> None:
    """Restore the context current before a span was attached; a token of another context
    (a hook fired from elsewhere) is left alone.
    """
    with contextlib.suppress(Exception):
        otel_context.detach(token)  # type: ignore[arg-type]
