"""Test doubles for the tool-chain tests: small Tool subclasses (the format is the kit's
:class:`~gent_core.testing.PlainFormat`)."""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import yaml

from gent_core.context import ExecutionContext
from gent_core.errors import InvalidToolArgumentsError, Location
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


def write_calls(chain: ToolChain, calls: Sequence[tuple[str, Mapping[str, Any]]]) -> str:
    """Write ``calls`` in the chain's own call language (JSON or YAML)."""
    items = [{"tool": name, "args": dict(arguments)} for name, arguments in calls]
    if type(chain).__name__ == "YAMLToolChain":
        return yaml.safe_dump(items, sort_keys=False)
    return json.dumps(items)
