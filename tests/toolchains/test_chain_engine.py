"""The shared execution engine, through both the json and the yaml chains."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path
from typing import Any

import pytest
from gent_json import JSONToolChain
from gent_yaml import YAMLToolChain

from gent_core._execution import ToolCancelledError, execute_action, execute_calls
from gent_core.context import ExecutionContext, Limits
from gent_core.errors import (
    InvalidToolArgumentsError,
    ToolExecutionError,
    ToolTimeoutError,
    TruncatedCallError,
    UnknownToolError,
)
from gent_core.messages import ImagePart
from gent_core.testing import PlainFormat
from gent_core.toolchain import ToolCall, ToolChain
from gent_core.tools.result import ToolResult
from tests.toolchains.chain_doubles import (
    FakeTool,
    async_tool,
    echo_tool,
    never_returns,
    write_calls,
)

FORMAT = PlainFormat()

GUARD = 30.0
"""Seconds a test waits for an event that comes at once when the code works: a guard against
a hang, never a speed check (the tests prove timing properties with events)."""


CHAIN_TYPES: list[type[ToolChain]] = [JSONToolChain, YAMLToolChain]


@pytest.fixture(params=CHAIN_TYPES, ids=["json", "yaml"])
def chain_type(request: pytest.FixtureRequest) -> type[ToolChain]:
    return request.param  # type: ignore[no-any-return]


def run(
    chain: ToolChain, calls: list[tuple[str, dict[str, Any]]], context: ExecutionContext
) -> Any:
    return asyncio.run(execute_action(chain, write_calls(chain, calls), FORMAT, context))


def test_results_keep_call_order_while_calls_run_concurrently(
    chain_type: type[ToolChain], tmp_path: Path
) -> None:
    started: list[str] = []
    all_started = asyncio.Event()
    done = {label: asyncio.Event() for label in ("first", "second", "third")}
    finished: list[str] = []

    async def meet(label: str, after: str) -> str:
        started.append(label)
        if len(started) == 3:
            all_started.set()
        # Only calls running at the same time get past this (one after another, the first
        # would wait for the others forever: the guard turns that into an error result).
        await asyncio.wait_for(all_started.wait(), GUARD)
        if after:
            await done[after].wait()
        finished.append(label)
        done[label].set()
        return label

    tool = async_tool("meet", meet, label="string", after="string")
    chain = chain_type([tool])
    result = run(
        chain,
        [
            ("meet", {"label": "first", "after": "third"}),
            ("meet", {"label": "second", "after": ""}),
            ("meet", {"label": "third", "after": "second"}),
        ],
        ExecutionContext(working_directory=tmp_path),
    )
    assert result.errors == [None, None, None]
    assert finished == ["second", "third", "first"]  # they finished in another order...
    assert [r.output for r in result.results] == ["first", "second", "third"]  # ...kept here
    assert [c.id for c in result.calls] == ["call_0", "call_1", "call_2"]
    assert result.text == (
        "[observation]\n  [meet]\n  first\n  [meet]\n  second\n  [meet]\n  third"
    )


def test_a_blocking_sync_tool_does_not_block_an_async_one(
    chain_type: type[ToolChain], tmp_path: Path
) -> None:
    blocked = threading.Event()
    released = threading.Event()

    def blocking() -> str:
        blocked.set()
        # Blocks its thread until the async tool runs: that can only happen if the event loop
        # kept going meanwhile (the sync tool runs in a worker thread).
        return "sync done" if released.wait(GUARD) else "never released"

    async def quick() -> str:
        if not await asyncio.to_thread(blocked.wait, GUARD):
            return "the sync tool never started"
        released.set()  # the async tool ran while the sync one was blocked
        return "async done"

    chain = chain_type([async_tool("blocking", blocking), async_tool("quick", quick)])
    result = run(chain, [("blocking", {}), ("quick", {})], ExecutionContext(tmp_path))
    assert [r.output for r in result.results] == ["sync done", "async done"]


def test_a_hanging_tool_is_stopped_by_its_timeout(
    chain_type: type[ToolChain], tmp_path: Path
) -> None:
    hang = FakeTool("hang", never_returns, timeout=0.1)
    chain = chain_type([hang, echo_tool()])
    # The run's default timeout is an hour: only the tool's own 0.1 s can end the call before
    # the guard, which fails the test if it fires.
    context = ExecutionContext(tmp_path, limits=Limits(tool_timeout=3600))
    calls = write_calls(chain, [("hang", {}), ("echo", {"text": "hi"})])
    result = asyncio.run(asyncio.wait_for(execute_action(chain, calls, FORMAT, context), GUARD))
    error = result.errors[0]
    assert isinstance(error, ToolTimeoutError)
    assert str(error).startswith("tool 'hang' did not finish within 0.1 s")
    assert result.results[0].status == "error"
    assert result.results[1].output == "hi"
    assert "[hang]\n  Error: Tool 'hang' did not finish within 0.1 s." in result.text


def test_the_run_default_timeout_applies_when_the_tool_has_none(
    chain_type: type[ToolChain], tmp_path: Path
) -> None:
    chain = chain_type([FakeTool("hang", never_returns)])
    context = ExecutionContext(tmp_path, limits=Limits(tool_timeout=0.05))
    result = run(chain, [("hang", {})], context)
    assert isinstance(result.errors[0], ToolTimeoutError)
    assert "within 0.05 s" in result.errors[0].model_message


def test_an_exception_becomes_an_error_result_without_traceback(
    chain_type: type[ToolChain], tmp_path: Path
) -> None:
    def explode() -> str:
        raise ValueError("boom at step 3")

    chain = chain_type([async_tool("explode", explode)])
    result = run(chain, [("explode", {})], ExecutionContext(tmp_path))
    error = result.errors[0]
    assert isinstance(error, ToolExecutionError)
    assert isinstance(error.__cause__, ValueError)
    assert error.model_message == "Tool 'explode' failed: ValueError: boom at step 3"
    assert result.text == (
        "[observation]\n  [explode]\n  Error: Tool 'explode' failed: ValueError: boom at step 3"
    )
    assert "Traceback" not in result.text and result.all_failed


def test_an_unknown_tool_lists_the_available_ones(
    chain_type: type[ToolChain], tmp_path: Path
) -> None:
    chain = chain_type([echo_tool("alpha"), echo_tool("beta")])
    result = run(
        chain, [("gamma", {"x": 1}), ("alpha", {"text": "ok"})], ExecutionContext(tmp_path)
    )
    error = result.errors[0]
    assert isinstance(error, UnknownToolError)
    assert error.available == ("alpha", "beta")
    assert "[gamma]\n  Error: Unknown tool 'gamma'. Available tools: alpha, beta." in result.text
    assert result.results[1].output == "ok"
    assert not result.all_failed


def test_invalid_arguments_are_reported_and_the_tool_never_runs(
    chain_type: type[ToolChain], tmp_path: Path
) -> None:
    tool = echo_tool()
    chain = chain_type([tool])
    result = run(chain, [("echo", {"txt": "typo"})], ExecutionContext(tmp_path))
    assert isinstance(result.errors[0], InvalidToolArgumentsError)
    assert "missing argument 'text'" in result.text and "unknown argument 'txt'" in result.text
    assert tool.calls == []


def test_a_truncated_call_is_raised_and_nothing_runs(chain_type: type[ToolChain]) -> None:
    tool = echo_tool()
    chain = chain_type([tool])
    content = (
        '[{"tool": "echo", "args": {"text": "a"}}, {"tool": "echo", "args": {"text": "b'
        if chain_type is JSONToolChain
        else "- tool: echo\n  args: {text: a}\n- tool: echo\n  args: {text: 'b"
    )
    with pytest.raises(TruncatedCallError) as raised:
        asyncio.run(execute_action(chain, content, FORMAT, ExecutionContext()))
    assert "write the complete call again" in raised.value.model_message
    assert tool.calls == []


def test_long_output_is_cut_with_a_note(chain_type: type[ToolChain], tmp_path: Path) -> None:
    chain = chain_type([echo_tool()])
    context = ExecutionContext(tmp_path, limits=Limits(max_tool_output_chars=10))
    result = run(chain, [("echo", {"text": "x" * 12355})], context)
    assert result.text == (
        "[observation]\n  [echo]\n  xxxxxxxxxx\n  [... 12345 more characters cut]"
    )
    assert result.results[0].output == "x" * 12355  # the raw result is kept whole


def test_media_is_collected_in_call_order(chain_type: type[ToolChain], tmp_path: Path) -> None:
    async def picture(label: str, delay: float) -> ToolResult:
        await asyncio.sleep(delay)
        return ToolResult(output=label, media=[ImagePart(label.encode(), "image/png")])

    chain = chain_type([async_tool("picture", picture, label="string", delay="number")])
    result = run(
        chain,
        [
            ("picture", {"label": "one", "delay": 0.1}),
            ("picture", {"label": "two", "delay": 0.0}),
            ("picture", {"label": "three", "delay": 0.05}),
        ],
        ExecutionContext(tmp_path),
    )
    assert [part.data for part in result.media] == [b"one", b"two", b"three"]
    assert result.as_content_parts()[1:] == result.media


def test_no_calls_give_empty_text(chain_type: type[ToolChain]) -> None:
    chain = chain_type([echo_tool()])
    result = asyncio.run(execute_action(chain, "  \n", FORMAT, ExecutionContext()))
    assert result.text == "" and result.calls == [] and result.as_content_parts() == []


def test_non_string_output_is_written_in_the_chain_language(
    chain_type: type[ToolChain], tmp_path: Path
) -> None:
    def data() -> dict[str, Any]:
        return {"name": "Ada", "langs": ["en", "fr"]}

    chain = chain_type([async_tool("data", data)])
    result = run(chain, [("data", {})], ExecutionContext(tmp_path))
    expected = (
        '{"name": "Ada", "langs": ["en", "fr"]}'
        if chain_type is JSONToolChain
        else "name: Ada\n  langs:\n  - en\n  - fr"
    )
    assert result.text == f"[observation]\n  [data]\n  {expected}"


# --------------------------------------------------------------------------- clipboard files


def _file_tool(path: str | Path) -> FakeTool:
    def give() -> ToolResult:
        return ToolResult(output="done", clipboard_files=[Path(path)])

    return async_tool("give", give)


@pytest.mark.parametrize(
    "path",
    ["../secret.txt", "sub/../../secret.txt", "/etc/passwd"],
    ids=["parent", "nested-parent", "absolute"],
)
def test_clipboard_files_outside_the_working_directory_are_refused(
    chain_type: type[ToolChain], tmp_path: Path, path: str
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (tmp_path / "secret.txt").write_text("secret")
    result = run(chain_type([_file_tool(path)]), [("give", {})], ExecutionContext(work))
    assert isinstance(result.errors[0], ToolExecutionError)
    assert "outside the working directory" in result.text
    assert result.clipboard_files == [] and "secret" not in result.text.replace(path, "")


def test_a_symlink_escaping_the_working_directory_is_refused(
    chain_type: type[ToolChain], tmp_path: Path
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (tmp_path / "secret.txt").write_text("secret")
    os.symlink(tmp_path / "secret.txt", work / "link.txt")
    result = run(chain_type([_file_tool("link.txt")]), [("give", {})], ExecutionContext(work))
    assert isinstance(result.errors[0], ToolExecutionError)
    assert result.clipboard_files == []


def test_files_inside_the_working_directory_are_kept_relative(
    chain_type: type[ToolChain], tmp_path: Path
) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("a")
    tools = [_file_tool("notes/a.txt")]
    result = run(chain_type(tools), [("give", {})], ExecutionContext(tmp_path))
    assert result.errors == [None]
    assert result.clipboard_files == [Path("notes/a.txt")]
    absolute = run(
        chain_type([_file_tool(tmp_path / "notes" / "a.txt")]),
        [("give", {})],
        ExecutionContext(tmp_path),
    )
    assert absolute.clipboard_files == [Path("notes/a.txt")]


# --------------------------------------------------------------------------- cancellation


def test_a_cancelled_run_does_not_start_tools(tmp_path: Path) -> None:
    tool = echo_tool()
    context = ExecutionContext(tmp_path)
    context.cancellation.cancel("user pressed stop")
    result = asyncio.run(
        execute_calls(JSONToolChain([tool]), [ToolCall("echo", {"text": "x"})], FORMAT, context)
    )
    assert isinstance(result.errors[0], ToolCancelledError)
    assert "user pressed stop" in result.text
    assert tool.calls == []


def test_cancellation_stops_a_running_tool(tmp_path: Path) -> None:
    context = ExecutionContext(tmp_path, limits=Limits(tool_timeout=3600))
    running = asyncio.Event()

    async def hang() -> str:
        running.set()
        return await never_returns()

    async def main() -> Any:
        chain = JSONToolChain([FakeTool("hang", hang)])
        calls = asyncio.ensure_future(execute_calls(chain, [ToolCall("hang")], FORMAT, context))
        await asyncio.wait_for(running.wait(), GUARD)  # the tool is under way
        context.cancellation.cancel("stop")
        # Only the cancellation can end the call before the guard (the timeout is an hour).
        return await asyncio.wait_for(calls, GUARD)

    result = asyncio.run(main())
    assert isinstance(result.errors[0], ToolCancelledError)
    assert "stop" in result.text


# --------------------------------------------------------------------------- odd results


def test_unformattable_output_becomes_an_error(tmp_path: Path) -> None:
    def cyclic() -> list[Any]:
        loop: list[Any] = []
        loop.append(loop)
        return loop

    result = asyncio.run(
        execute_calls(
            JSONToolChain([async_tool("cyclic", cyclic)]),
            [ToolCall("cyclic")],
            FORMAT,
            ExecutionContext(tmp_path),
        )
    )
    assert isinstance(result.errors[0], ToolExecutionError)
    assert "could not be written as text" in result.text


def test_an_error_result_without_error_object_gets_one(tmp_path: Path) -> None:
    def refuse() -> ToolResult:
        return ToolResult(output="disk full", status="error")

    result = asyncio.run(
        execute_calls(
            JSONToolChain([async_tool("refuse", refuse)]),
            [ToolCall("refuse")],
            FORMAT,
            ExecutionContext(tmp_path),
        )
    )
    assert isinstance(result.errors[0], ToolExecutionError)
    assert result.text == "[observation]\n  [refuse]\n  Error: Tool 'refuse' failed: disk full"
