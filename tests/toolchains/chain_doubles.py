"""Test doubles for the tool-chain tests: small Tool subclasses and a tiny TextFormat."""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import yaml

from gent_core.context import ExecutionContext
from gent_core.errors import InvalidToolArgumentsError, Location
from gent_core.formats import IncrementalParser, TextFormat
from gent_core.sections import FormattedSection, ParseResult, Section
from gent_core.toolchain import ToolChain
from gent_core.tools._threads import run_sync
from gent_core.tools.base import Tool
from gent_core.tools.result import ToolResult

_TYPES: dict[str, type | tuple[type, ...]] = {
    "string": str,
    "integer": int,
    "number": (int, float),
    "boolean": bool,
    "array": list,
    "object": dict,
}


class FakeTool(Tool):
    """A tool around a plain function (sync functions run in a worker thread).

    The validator checks required, unknown and simply-typed arguments, like a real tool.
    ``calls`` records every argument mapping the tool was called with.
    """

    def __init__(
        self,
        name: str,
        function: Callable[..., Any],
        properties: Mapping[str, Mapping[str, Any]] | None = None,
        *,
        required: Sequence[str] = (),
        timeout: float | None = None,
        description: str = "",
    ) -> None:
        self.name = name
        self.function = function
        self.timeout = timeout
        self.description = description or f"The {name} tool."
        self._schema: dict[str, Any] = {
            "type": "object",
            "properties": {key: dict(value) for key, value in (properties or {}).items()},
            "required": list(required),
        }
        self.calls: list[dict[str, Any]] = []

    @property
    def parameters(self) -> dict[str, Any]:
        return self._schema

    def validate_arguments(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        problems = []
        properties = self._schema["properties"]
        for key in self._schema["required"]:
            if key not in arguments:
                problems.append(f"missing argument {key!r}")
        for key, value in arguments.items():
            if key not in properties:
                problems.append(f"unknown argument {key!r}")
                continue
            expected = _TYPES.get(properties[key].get("type", ""), object)
            if not isinstance(value, expected) or (
                isinstance(value, bool) and expected in (int, (int, float))
            ):
                problems.append(f"argument {key!r} must be {properties[key]['type']}")
        if problems:
            raise InvalidToolArgumentsError(
                f"invalid arguments for {self.name!r}: {'; '.join(problems)}",
                location=Location(tool=self.name),
                model_message=f"Invalid arguments for {self.name!r}: {'; '.join(problems)}.",
            )
        return dict(arguments)

    async def call(self, arguments: Mapping[str, Any], context: ExecutionContext) -> ToolResult:
        self.calls.append(dict(arguments))
        if inspect.iscoroutinefunction(self.function):
            value = await self.function(**arguments)
        else:
            value = await run_sync(self.function, **arguments)
        return ToolResult.wrap(value)


def echo_tool(name: str = "echo") -> FakeTool:
    """A tool returning its ``text`` argument."""

    def echo(text: str) -> str:
        return text

    return FakeTool(name, echo, {"text": {"type": "string"}}, required=["text"])


def async_tool(name: str, function: Callable[..., Any], **properties: str) -> FakeTool:
    """A tool with arguments ``name: json type`` around ``function`` (sync or async)."""
    return FakeTool(name, function, {key: {"type": kind} for key, kind in properties.items()})


async def never_returns() -> str:
    await asyncio.Event().wait()
    return "unreachable"


class BracketFormat(TextFormat):
    """A tiny format writing ``[name]`` headers, enough for formatting observations.

    Nested children are indented by two spaces. Parsing is not part of these tests, so the
    parsing methods refuse to run.
    """

    name = "brackets"

    def describe(self, sections: Sequence[Section]) -> str:
        return "\n".join(f"[{section.name}] {section.guidance}" for section in sections)

    def parse(self, text: str, sections: Sequence[Section | str]) -> ParseResult:
        raise AssertionError("BracketFormat.parse is not used by the tool-chain tests")

    def incremental_parser(self, sections: Sequence[Section | str]) -> IncrementalParser:
        raise AssertionError("BracketFormat.incremental_parser is not used by these tests")

    def format_section(
        self, name: str, content: str, *, attributes: Mapping[str, str] | None = None
    ) -> str:
        return f"[{name}]\n{content}"

    def format_sections(self, sections: Sequence[FormattedSection]) -> str:
        parts = []
        for section in sections:
            body = section.content
            if section.children:
                inner = self.format_sections(section.children)
                body = "\n".join(filter(None, [body, _indent(inner)]))
            parts.append(self.format_section(section.name, body))
        return "\n".join(parts)

    def stop_sequences(self, sections: Sequence[str]) -> list[str]:
        return []


def _indent(text: str) -> str:
    return "\n".join("  " + line if line else line for line in text.splitlines())


def write_calls(chain: ToolChain, calls: Sequence[tuple[str, Mapping[str, Any]]]) -> str:
    """Write ``calls`` in the chain's own call language (JSON or YAML)."""
    items = [{"tool": name, "args": dict(arguments)} for name, arguments in calls]
    if type(chain).__name__ == "YAMLToolChain":
        return yaml.safe_dump(items, sort_keys=False)
    return json.dumps(items)
