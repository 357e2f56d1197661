"""The tool-call lifecycle hooks fired by the execution engine."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from gent_json import JSONToolChain
from gent_yaml import YAMLToolChain

from gent_core import hookimpl
from gent_core._execution import ToolCallDeniedError, execute_action
from gent_core._plugins.decisions import ToolCallDecision
from gent_core.context import ExecutionContext
from gent_core.testing import PlainFormat, PluginSandbox
from gent_core.toolchain import ToolCall, ToolChain, ToolChainResult
from gent_core.tools.base import Tool
from gent_core.tools.result import ToolResult
from tests.toolchains.chain_doubles import echo_tool, write_calls

FORMAT = PlainFormat()


CHAIN_TYPES: list[type[ToolChain]] = [JSONToolChain, YAMLToolChain]


@pytest.fixture(params=CHAIN_TYPES, ids=["json", "yaml"])
def chain_type(request: pytest.FixtureRequest) -> type[ToolChain]:
    return request.param  # type: ignore[no-any-return]


def execute(
    chain: ToolChain,
    calls: list[tuple[str, dict[str, Any]]],
    sandbox: PluginSandbox,
    tmp_path: Path,
) -> ToolChainResult:
    context = ExecutionContext(tmp_path, plugin_manager=sandbox.manager)
    return asyncio.run(execute_action(chain, write_calls(chain, calls), FORMAT, context))


class DenyDeletes:
    seen: list[tuple[str, Tool | None]]

    def __init__(self) -> None:
        self.seen = []

    @hookimpl
    def gent_before_tool_call(
        self, call: ToolCall, tool: Tool | None, context: ExecutionContext
    ) -> ToolCallDecision | None:
        self.seen.append((call.tool, tool))
        if call.tool == "delete":
            return ToolCallDecision.deny("deleting files needs approval")
        return None


def test_a_denied_call_is_an_error_result_and_never_runs(
    chain_type: type[ToolChain], gent_plugins: PluginSandbox, tmp_path: Path
) -> None:
    delete, echo = echo_tool("delete"), echo_tool()
    policy = DenyDeletes()
    gent_plugins.register(policy, "policy")
    result = execute(
        chain_type([delete, echo]),
        [("delete", {"text": "all"}), ("echo", {"text": "hi"}), ("missing", {})],
        gent_plugins,
        tmp_path,
    )
    assert delete.calls == [] and echo.calls == [{"text": "hi"}]
    assert isinstance(result.errors[0], ToolCallDeniedError)
    assert result.results[0].status == "error"
    assert "[delete]\n  Error: The call to 'delete' was denied: deleting files needs approval" in (
        result.text
    )
    assert policy.seen == [("delete", delete), ("echo", echo), ("missing", None)]


class Redirect:
    @hookimpl
    def gent_before_tool_call(
        self, call: ToolCall, tool: Tool | None, context: ExecutionContext
    ) -> ToolCallDecision | None:
        if call.tool == "old":
            return ToolCallDecision.allow(ToolCall("new", {"text": call.args["text"].upper()}))
        return None


def test_a_hook_can_replace_the_call(
    chain_type: type[ToolChain], gent_plugins: PluginSandbox, tmp_path: Path
) -> None:
    old, new = echo_tool("old"), echo_tool("new")
    gent_plugins.register(Redirect(), "redirect")
    result = execute(chain_type([old, new]), [("old", {"text": "abc"})], gent_plugins, tmp_path)
    assert old.calls == [] and new.calls == [{"text": "ABC"}]
    assert result.text == "[observation]\n  [new]\n  ABC"
    assert result.calls == [ToolCall("old", {"text": "abc"}, "call_0")]  # as parsed


class Redact:
    def __init__(self) -> None:
        self.results: list[ToolResult] = []

    @hookimpl
    def gent_after_tool_call(
        self, call: ToolCall, result: ToolResult, context: ExecutionContext
    ) -> ToolResult | None:
        self.results.append(result)
        if result.ok and "password" in str(result.output):
            return ToolResult(output="[redacted]")
        return None


def test_an_after_hook_can_replace_the_result(
    chain_type: type[ToolChain], gent_plugins: PluginSandbox, tmp_path: Path
) -> None:
    hook = Redact()
    gent_plugins.register(hook, "redact")
    result = execute(
        chain_type([echo_tool()]),
        [("echo", {"text": "password=123"}), ("echo", {"text": "fine"}), ("nope", {})],
        gent_plugins,
        tmp_path,
    )
    assert [r.output for r in result.results] == ["[redacted]", "fine", None]
    assert "password" not in result.text
    # the hook sees every result (in completion order: the unknown tool fails at once)
    assert sorted(r.status for r in hook.results) == ["error", "success", "success"]


class Broken:
    @hookimpl
    def gent_before_tool_call(
        self, call: ToolCall, tool: Tool | None, context: ExecutionContext
    ) -> ToolCallDecision | None:
        raise RuntimeError("policy server down")


def test_a_failing_before_hook_blocks_the_call(
    chain_type: type[ToolChain], gent_plugins: PluginSandbox, tmp_path: Path
) -> None:
    echo = echo_tool()
    gent_plugins.register(Broken(), "broken")
    result = execute(chain_type([echo]), [("echo", {"text": "x"})], gent_plugins, tmp_path)
    assert echo.calls == []
    assert isinstance(result.errors[0], ToolCallDeniedError)
    assert "RuntimeError: policy server down" in result.text


class Confused:
    @hookimpl
    def gent_before_tool_call(
        self, call: ToolCall, tool: Tool | None, context: ExecutionContext
    ) -> object:
        return True  # not a ToolCallDecision


def test_a_before_hook_returning_nonsense_blocks_the_call(
    chain_type: type[ToolChain], gent_plugins: PluginSandbox, tmp_path: Path
) -> None:
    echo = echo_tool()
    gent_plugins.register(Confused(), "confused")
    result = execute(chain_type([echo]), [("echo", {"text": "x"})], gent_plugins, tmp_path)
    assert echo.calls == []
    assert isinstance(result.errors[0], ToolCallDeniedError)
