"""The chains with real tools: ``@tool`` functions and the gent-tools-basic plugin."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import gent_tools_basic.plugin
import pytest
from gent_json import JSONToolChain
from gent_yaml import YAMLToolChain

from gent_core._execution import execute_action
from gent_core.context import ExecutionContext
from gent_core.errors import InvalidToolArgumentsError, ToolExecutionError
from gent_core.testing import PlainFormat, PluginSandbox
from gent_core.toolchain import ToolChain
from gent_core.tools import tool
from gent_core.tools.result import ToolResult

FORMAT = PlainFormat()


def registry_chain(sandbox: PluginSandbox, chain: str) -> ToolChain:
    sandbox.register(gent_tools_basic.plugin, "basic")
    registry = sandbox.registry()
    tools = [registry.create("tool", "calculator"), registry.create("tool", "current_time")]
    created: ToolChain = registry.create("toolchain", chain, tools=tools)
    return created


def test_json_calculator_from_the_registry(gent_plugins: PluginSandbox) -> None:
    from gent_json import plugin

    gent_plugins.register(plugin, "json")
    chain = registry_chain(gent_plugins, "json")
    result = asyncio.run(
        execute_action(
            chain,
            "Computing: {'tool': 'calculator', 'args': {'expression': '17 * 23'}}",
            FORMAT,
            ExecutionContext(),
        )
    )
    assert result.results[0].output == 391
    assert result.text == "[observation]\n  [calculator]\n  391"


def test_yaml_calculator_keeps_the_expression_as_text(gent_plugins: PluginSandbox) -> None:
    from gent_yaml import plugin

    gent_plugins.register(plugin, "yaml")
    chain = registry_chain(gent_plugins, "yaml")
    # "1.10" and "2026" would be numbers in YAML: the schema says string, so they stay text.
    calls = chain.parse("- tool: calculator\n  args:\n    expression: 1.10\n")
    assert calls[0].args == {"expression": "1.10"}
    result = asyncio.run(
        execute_action(
            chain, "tool: calculator\nargs: {expression: 2026}", FORMAT, ExecutionContext()
        )
    )
    assert result.results[0].output == 2026 and result.errors == [None]


@pytest.mark.parametrize("chain_type", [JSONToolChain, YAMLToolChain], ids=["json", "yaml"])
def test_a_tool_error_keeps_its_own_message(chain_type: type[ToolChain]) -> None:
    from gent_tools_basic.calculator_tool import CalculatorError, calculator

    chain = chain_type([calculator])
    content = (
        '{"tool": "calculator", "args": {"expression": "1 / 0"}}'
        if chain_type is JSONToolChain
        else "tool: calculator\nargs:\n  expression: 1 / 0\n"
    )
    result = asyncio.run(execute_action(chain, content, FORMAT, ExecutionContext()))
    error = result.errors[0]
    assert isinstance(error, CalculatorError)
    assert result.text == f"[observation]\n  [calculator]\n  Error: {error.model_message}"


@tool
def count_words(text: str, minimum: int = 1) -> int:
    """Count the words of a text that have at least ``minimum`` letters."""
    return sum(1 for word in text.split() if len(word) >= minimum)


def test_pydantic_validation_errors_reach_the_model() -> None:
    chain = JSONToolChain([count_words])
    result = asyncio.run(
        execute_action(
            chain,
            '{"tool": "count_words", "args": {"text": "a b", "minimum": "seven"}}',
            FORMAT,
            ExecutionContext(),
        )
    )
    error = result.errors[0]
    assert isinstance(error, InvalidToolArgumentsError)
    assert "minimum" in result.text and "Error: " in result.text


def test_ten_sync_tools_run_side_by_side() -> None:
    # All ten calls must be blocked in the barrier at the same time for any to go on; fewer
    # at once break it at the guard (30 s, a hang guard, not a speed check): error results.
    ten_at_once = threading.Barrier(10, timeout=30)

    @tool
    def meet(label: str) -> str:
        """Wait, blocking, until ten calls are running at once."""
        ten_at_once.wait()
        return label

    chain = JSONToolChain([meet])
    content = (
        "[" + ",".join(f'{{"tool": "meet", "args": {{"label": "{i}"}}}}' for i in range(10)) + "]"
    )
    result = asyncio.run(execute_action(chain, content, FORMAT, ExecutionContext()))
    assert result.errors == [None] * 10
    assert [r.output for r in result.results] == [str(i) for i in range(10)]


@tool
def save_note(text: str, working_directory: Path) -> ToolResult:
    """Save a note and put it on the clipboard."""
    (working_directory / "note.txt").write_text(text)
    return ToolResult(output="saved", clipboard_files=[working_directory / "note.txt"])


def test_a_decorated_tool_gets_the_working_directory_and_its_file_is_accepted(
    tmp_path: Path,
) -> None:
    result = asyncio.run(
        execute_action(
            YAMLToolChain([save_note]),
            "tool: save_note\nargs:\n  text: |\n    line 1\n    line 2\n",
            FORMAT,
            ExecutionContext(tmp_path),
        )
    )
    assert (tmp_path / "note.txt").read_text() == "line 1\nline 2\n"
    assert result.clipboard_files == [Path("note.txt")]


@tool
def leak(working_directory: Path) -> ToolResult:
    """Try to put a file outside the working directory on the clipboard."""
    return ToolResult(output="ok", clipboard_files=[working_directory.parent / "x.txt"])


def test_a_decorated_tool_cannot_leak_files(tmp_path: Path) -> None:
    work = tmp_path / "w"
    work.mkdir()
    result = asyncio.run(
        execute_action(JSONToolChain([leak]), '{"tool": "leak"}', FORMAT, ExecutionContext(work))
    )
    assert isinstance(result.errors[0], ToolExecutionError)
    assert result.clipboard_files == []
