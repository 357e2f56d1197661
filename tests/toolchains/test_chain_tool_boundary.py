"""The tool boundary in the execution engine: anything a tool does becomes an error result for
that call; only ``KeyboardInterrupt`` stops the run (issue 11, bugs 10, 11 and 17)."""

from __future__ import annotations

import asyncio
import builtins
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from gent_json import JSONToolChain

from gent_core._execution import TooManyCallsError, execute_calls
from gent_core.context import ExecutionContext, Limits
from gent_core.errors import ToolExecutionError, ToolTimeoutError
from gent_core.messages import ImagePart
from gent_core.testing import PlainFormat
from gent_core.toolchain import ToolCall, ToolChainResult
from gent_core.tools.result import ToolResult
from tests.toolchains.chain_doubles import async_tool

FORMAT = PlainFormat()


def execute(tmp_path: Path, *tools: Any, calls: list[ToolCall], **limits: Any) -> ToolChainResult:
    context = ExecutionContext(tmp_path, limits=Limits(**limits))
    return asyncio.run(execute_calls(JSONToolChain(list(tools)), calls, FORMAT, context))


def exits() -> str:
    raise SystemExit(3)


def raises_base() -> str:
    raise BaseException("bare")


def raises_generator_exit() -> str:
    raise GeneratorExit


def raises_group() -> str:
    group: Any = vars(builtins)["BaseExceptionGroup"]  # Python 3.11+
    raise group("several", [SystemExit(1), KeyboardInterrupt()])


async def async_exits() -> str:
    await asyncio.sleep(0)
    raise SystemExit("bye")


def fine() -> str:
    return "fine"


@pytest.mark.parametrize(
    ("function", "shown"),
    [
        (exits, "it tried to exit the program (SystemExit with code 3)"),
        (async_exits, "it tried to exit the program (SystemExit with code 'bye')"),
        (raises_base, "BaseException: bare"),
        (raises_generator_exit, "GeneratorExit"),
        pytest.param(
            raises_group,
            "BaseExceptionGroup: several",
            marks=pytest.mark.skipif(sys.version_info < (3, 11), reason="exception groups"),
        ),
    ],
)
def test_base_exceptions_become_an_error_result_for_that_call(
    tmp_path: Path, function: Any, shown: str
) -> None:
    result = execute(
        tmp_path,
        async_tool("bad", function),
        async_tool("fine", fine),
        calls=[ToolCall("bad"), ToolCall("fine")],
    )
    bad, good = result.results
    assert bad.status == "error" and isinstance(bad.error, ToolExecutionError)
    assert shown in bad.error.model_message
    assert good.status == "success" and good.output == "fine"


def test_keyboard_interrupt_still_stops_the_run(tmp_path: Path) -> None:
    def interrupt() -> str:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        execute(tmp_path, async_tool("stop", interrupt), calls=[ToolCall("stop")])


MALFORMED: list[tuple[Any, str]] = [
    (lambda result: setattr(result, "media", None), "media must be a list of ImagePart"),
    (lambda result: setattr(result, "clipboard_text", None), "clipboard_text must be a list"),
    (lambda result: setattr(result, "clipboard_text", "text"), "clipboard_text must be a list"),
    (lambda result: result.clipboard_text.append(7), "clipboard_text must hold only strings"),
    (lambda result: result.media.append(b"png"), "media must hold only ImagePart"),
    (lambda result: setattr(result, "clipboard_files", [None]), "clipboard_files must hold"),
    (lambda result: setattr(result, "status", "ok"), "status must be 'success' or 'error'"),
    (lambda result: setattr(result, "error", "oops"), "error must be a GentError or None"),
]


@pytest.mark.parametrize(("spoil", "problem"), MALFORMED)
def test_a_malformed_tool_result_is_an_error_result(
    tmp_path: Path, spoil: Any, problem: str
) -> None:
    def broken() -> ToolResult:
        result = ToolResult(output="x")
        spoil(result)
        return result

    [outcome] = execute(tmp_path, async_tool("broken", broken), calls=[ToolCall("broken")]).results
    assert outcome.status == "error" and outcome.error is not None
    assert "returned a malformed result" in outcome.error.model_message
    assert problem in outcome.error.model_message


def test_none_for_a_list_channel_means_empty_as_in_seed_004(tmp_path: Path) -> None:
    def empty() -> ToolResult:
        return ToolResult(output="x", clipboard_text=None, media=None, clipboard_files=None)

    [outcome] = execute(tmp_path, async_tool("empty", empty), calls=[ToolCall("empty")]).results
    assert outcome.status == "success"
    assert outcome.clipboard_text == [] and outcome.media == [] and outcome.clipboard_files == []


def test_well_formed_results_pass_the_check(tmp_path: Path) -> None:
    def good() -> ToolResult:
        return ToolResult(
            output={"a": 1},
            media=[ImagePart(b"png", "image/png")],
            clipboard_text=["t"],
            clipboard_files=["notes.txt"],
        )

    (tmp_path / "notes.txt").write_text("n")
    [outcome] = execute(tmp_path, async_tool("good", good), calls=[ToolCall("good")]).results
    assert outcome.status == "success"
    assert outcome.clipboard_files == [Path("notes.txt")]


def test_an_action_with_too_many_calls_runs_none(tmp_path: Path) -> None:
    ran: list[int] = []

    def count() -> str:
        ran.append(1)
        return "ok"

    calls = [ToolCall("count", {}, f"call_{n}") for n in range(5)]
    with pytest.raises(TooManyCallsError) as caught:
        execute(tmp_path, async_tool("count", count), calls=calls, max_calls_per_action=4)
    assert ran == []
    assert "holds 5 tool calls, but at most 4 are accepted" in caught.value.model_message
    result = execute(tmp_path, async_tool("count", count), calls=calls[:4], max_calls_per_action=4)
    assert len(result.results) == 4 and len(ran) == 4


SWALLOWING_TOOL = textwrap.dedent(
    """
    import asyncio, sys
    from gent_json import JSONToolChain
    from gent_xml.format import XMLFormat
    from gent_core._agent import Agent
    from gent_core.context import Limits
    from gent_core.testing import ScriptedModel
    from gent_core.tools import tool

    @tool
    async def stubborn() -> str:
        \"\"\"Ignores cancellation.\"\"\"
        while True:
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                pass

    call = '<action>{"tool": "stubborn", "args": {}}</action>'
    model = ScriptedModel([call, "<answer>ok</answer>"])
    agent = Agent(model, XMLFormat(), JSONToolChain(), tools=[stubborn],
                  limits=Limits(tool_timeout=0.2))
    result = agent.run_sync("q")
    print(result.stop_reason, result.steps[0].calls[0].error)
    """
)


def test_a_tool_swallowing_cancellation_cannot_keep_gent_from_exiting() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SWALLOWING_TOOL], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "answer Tool 'stubborn' did not finish within 0.2 s." in done.stdout
    assert "Task was destroyed" not in done.stderr


BLOCKED_SYNC_TOOL = SWALLOWING_TOOL.replace(
    "async def stubborn() -> str:", "def stubborn() -> str:"
).replace("await asyncio.sleep(3600)", "__import__('time').sleep(3600)")


def test_a_timed_out_sync_tool_does_not_block_the_exit() -> None:
    assert "def stubborn()" in BLOCKED_SYNC_TOOL and "time').sleep" in BLOCKED_SYNC_TOOL
    done = subprocess.run(
        [sys.executable, "-c", BLOCKED_SYNC_TOOL], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "did not finish within 0.2 s" in done.stdout


def test_timeout_of_a_tool_error_type(tmp_path: Path) -> None:
    async def slow() -> str:
        await asyncio.sleep(3600)
        return "never"

    [outcome] = execute(
        tmp_path, async_tool("slow", slow), calls=[ToolCall("slow")], tool_timeout=0.05
    ).results
    assert isinstance(outcome.error, ToolTimeoutError)
