"""Fixtures for agent-loop tests: real formats and tool chains, a scripted model."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from gent_json.chain import JSONToolChain
from gent_xml.format import XMLFormat

from gent_core._agent import Agent, AgentEvent
from gent_core.context import Limits
from gent_core.messages import ImagePart
from gent_core.tools import ToolResult, tool


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool
def fail(reason: str) -> str:
    """Always raises."""
    raise RuntimeError(reason)


@tool
def note(text: str, file: str = "") -> ToolResult:
    """Put text (and optionally a file) on the clipboard."""
    return ToolResult(
        output="noted",
        clipboard_text=[text],
        clipboard_files=[Path(file)] if file else [],
    )


@tool
def snapshot() -> ToolResult:
    """Return an image."""
    return ToolResult(output={"width": 1, "height": 1}, media=[ImagePart(b"PNGDATA", "image/png")])


TOOLS = [add, fail, note, snapshot]


@pytest.fixture
def make_agent(tmp_path: Path) -> Callable[..., Agent]:
    def make(model: Any, tools: Sequence[Any] = TOOLS, **options: Any) -> Agent:
        options.setdefault("working_directory", tmp_path)
        options.setdefault("limits", Limits(max_steps=6))
        return Agent(model, XMLFormat(), JSONToolChain(), tools=list(tools), **options)

    return make


class EventLog(list[AgentEvent]):
    def __call__(self, event: AgentEvent) -> None:
        self.append(event)

    def of(self, kind: type) -> list[Any]:
        return [event for event in self if isinstance(event, kind)]


@pytest.fixture
def events() -> EventLog:
    return EventLog()
