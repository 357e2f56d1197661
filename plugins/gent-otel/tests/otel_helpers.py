"""Helpers of gent-otel's tests: tools, scripted actions, span lookups."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from typing import Any

from opentelemetry.sdk.trace import ReadableSpan

from gent_core import Agent, ToolResult, tool

OTEL_VARIABLES = (
    "OTEL_SDK_DISABLED",
    "OTEL_TRACES_EXPORTER",
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT",
)


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool
def fail(reason: str) -> str:
    """Always raises."""
    raise RuntimeError(reason)


@tool
def echo(text: str) -> ToolResult:
    """Return the text."""
    return ToolResult(output={"echo": text})


class Rendezvous:
    """A tool pair that only returns once both calls are running at the same time."""

    def __init__(self) -> None:
        self.arrived = 0
        self.both = asyncio.Event()

    def make(self) -> Any:
        @tool
        async def meet(name: str) -> str:
            """Wait for the other call."""
            self.arrived += 1
            if self.arrived == 2:
                self.both.set()
            await asyncio.wait_for(self.both.wait(), timeout=30)
            return f"met {name}"

        return meet


TOOLS = [add, fail, echo]

MakeAgent = Callable[..., Agent]
"""``make_agent(model, tools=..., **Agent options)``: an xml/json agent traced by otel."""


def action(*calls: tuple[str, dict[str, Any]]) -> str:
    """An action section holding ``calls`` (one object, or a list of several)."""
    written = [{"tool": name, "args": args} for name, args in calls]
    return f"<action>{json.dumps(written[0] if len(written) == 1 else written)}</action>"


def named(spans: Sequence[ReadableSpan], prefix: str) -> list[ReadableSpan]:
    """The spans whose name starts with ``prefix``, in the order they ended."""
    return [span for span in spans if span.name.startswith(prefix)]


def parent_id(span: ReadableSpan) -> int | None:
    return span.parent.span_id if span.parent is not None else None


def span_id(span: ReadableSpan) -> int:
    assert span.context is not None
    return int(span.context.span_id)


def trace_id(span: ReadableSpan) -> int:
    assert span.context is not None
    return int(span.context.trace_id)


def attributes(span: ReadableSpan) -> dict[str, Any]:
    return dict(span.attributes or {})
