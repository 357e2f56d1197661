"""Fake plugins for the configuration tests: small but real implementations of each contract."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import BaseModel, Field

from gent_core import _builtin as core_plugin
from gent_core import hookimpl
from gent_core.context import ExecutionContext
from gent_core.formats import IncrementalParser, TextFormat
from gent_core.model import Model, ModelChunk, ModelRequest
from gent_core.sections import FormattedSection, ParsedSection, ParseResult, Section
from gent_core.testing import PluginSandbox
from gent_core.toolchain import ToolCall, ToolChain
from gent_core.tools.base import Tool
from gent_core.tools.result import ToolResult


class FakeModel(Model):
    """A model whose options are declared by an ``Options`` class."""

    class Options(BaseModel):
        temperature: float = Field(0.7, ge=0, le=2)
        api_key: str | None = None
        base_url: str = "http://localhost:8080"

    def __init__(self, **options: Any) -> None:
        self.options = options

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        yield ModelChunk("<answer>ok</answer>", finish_reason="stop")


class FakeFormat(TextFormat):
    """Sections as ``[name]content[/name]`` (only what the tests need)."""

    name = "fake"

    def __init__(self, *, strict: bool = False, indent: int = 0) -> None:
        self.strict = strict
        self.indent = indent

    def describe(self, sections: Sequence[Section]) -> str:
        return " ".join(f"[{section.name}]" for section in sections)

    def parse(self, text: str, sections: Sequence[Section | str]) -> ParseResult:
        return ParseResult((ParsedSection("answer", text),))

    def incremental_parser(self, sections: Sequence[Section | str]) -> IncrementalParser:
        raise RuntimeError("not used by the configuration tests")

    def format_section(
        self, name: str, content: str, *, attributes: Mapping[str, str] | None = None
    ) -> str:
        return f"[{name}]{content}[/{name}]"

    def format_sections(self, sections: Sequence[FormattedSection]) -> str:
        return "".join(self.format_section(item.name, item.content) for item in sections)

    def stop_sequences(self, sections: Sequence[str]) -> list[str]:
        return [f"[/{name}]" for name in sections]


class FakeChain(ToolChain):
    """A tool chain with one typed option."""

    def __init__(self, tools: Sequence[Tool] = (), *, indent: int | None = None) -> None:
        super().__init__(tools)
        self.indent = indent

    @property
    def guidance(self) -> str:
        return "Write calls."

    def parse(self, content: str) -> list[ToolCall]:
        return [ToolCall(content.strip())] if content.strip() else []

    def format_calls(self, calls: Sequence[ToolCall]) -> str:
        return "\n".join(call.tool for call in calls)


class Greeter(Tool):
    """A tool class instantiated with options."""

    name = "greet"
    description = "Greets someone."

    def __init__(self, greeting: str = "hello", times: int = 1) -> None:
        self.greeting = greeting
        self.times = times

    @property
    def parameters(self) -> dict[str, Any]:
        return {"type": "object", "properties": {"who": {"type": "string"}}}

    def validate_arguments(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        return dict(arguments)

    async def call(self, arguments: Mapping[str, Any], context: ExecutionContext) -> ToolResult:
        return ToolResult(output=f"{self.greeting} {arguments.get('who', '')}" * self.times)


class ReadyTool(Greeter):
    """A ready-made tool object (registered as an instance)."""

    name = "shout"


class Exploding(FakeFormat):
    """A format whose constructor fails, quoting its option."""

    def __init__(self, *, password: str = "") -> None:
        raise RuntimeError(f"cannot log in with {password}")


class NotAFormat:
    """Registered as a format but implements nothing."""


class FakePlugin:
    """Supplies one component of each kind."""

    @hookimpl
    def gent_register_models(self) -> Mapping[str, Callable[..., Any]]:
        return {"fake": FakeModel}

    @hookimpl
    def gent_register_formats(self) -> Mapping[str, Callable[..., Any]]:
        return {"fake": FakeFormat, "exploding": Exploding, "broken": NotAFormat}

    @hookimpl
    def gent_register_toolchains(self) -> Mapping[str, Callable[..., Any]]:
        return {"calls": FakeChain}

    @hookimpl
    def gent_register_tools(self) -> Sequence[Any]:
        return [Greeter, ReadyTool()]


class RivalPlugin:
    """Supplies a format whose name collides with FakePlugin's."""

    @hookimpl
    def gent_register_formats(self) -> Mapping[str, Callable[..., Any]]:
        return {"fake": FakeFormat}


@pytest.fixture
def fakes(gent_plugins: PluginSandbox) -> SimpleNamespace:
    """A sandbox with the fake plugin (``fakes``) and gent-core's own ``core`` plugin."""
    gent_plugins.register(FakePlugin(), "fakes")
    gent_plugins.register(core_plugin, "core")
    return SimpleNamespace(
        sandbox=gent_plugins,
        FakeModel=FakeModel,
        FakeFormat=FakeFormat,
        FakeChain=FakeChain,
        Greeter=Greeter,
        ReadyTool=ReadyTool,
        RivalPlugin=RivalPlugin,
    )


@pytest.fixture
def write_config(tmp_path: Path) -> Callable[[str], Path]:
    """Write a config text to ``tmp_path/agent.yaml`` and return its path."""

    def write(text: str, name: str = "agent.yaml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write
