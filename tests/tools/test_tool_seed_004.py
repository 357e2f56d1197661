"""Seed 004's example tool, verbatim (only the import path adapted), runs in gent: success with
its clipboard channel, and a crash that becomes an error result (issue 11, "Also fix")."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from gent_json import JSONToolChain
from gent_xml.format import XMLFormat

from gent_core._agent import Agent
from gent_core._execution import execute_action
from gent_core.context import ExecutionContext
from gent_core.errors import InvalidToolArgumentsError, ToolExecutionError
from gent_core.testing import ScriptedModel
from gent_core.tools import ToolResult
from tests.tools.seed_004_tool import MockTestTool


def test_seed_tool_result_fields_are_aliases() -> None:
    result = ToolResult(
        status="success",
        tool_response="done",
        results_to_add_to_clipboard=["a"],
        files_to_add_to_clipboard=[Path("f.txt")],
    )
    assert (result.output, result.clipboard_text, result.clipboard_files) == (
        "done",
        ["a"],
        [Path("f.txt")],
    )
    assert result.tool_response == "done"
    assert result.results_to_add_to_clipboard == ["a"]
    assert result.files_to_add_to_clipboard == [Path("f.txt")]
    assert ToolResult(results_to_add_to_clipboard=None).clipboard_text == []


def test_seed_tool_schema_is_its_llm_schema() -> None:
    schema = MockTestTool().to_llm_schema()
    assert schema["function"]["name"] == "test_tool"
    assert schema["function"]["parameters"] == MockTestTool.parameters


def test_seed_tool_succeeds_through_the_chain(tmp_path: Path) -> None:
    chain = JSONToolChain([MockTestTool()])
    result = asyncio.run(
        execute_action(
            chain,
            '{"tool": "test_tool", "args": {"input_text": "hello"}}',
            XMLFormat(),
            ExecutionContext(tmp_path),
        )
    )
    [outcome] = result.results
    assert outcome.ok
    assert outcome.output == "Processed input text successfully and added to the clipboard."
    assert result.clipboard_text == ["Processed: hello"]


def test_seed_tool_crash_is_an_error_result(tmp_path: Path) -> None:
    chain = JSONToolChain([MockTestTool()])
    result = asyncio.run(
        execute_action(
            chain,
            '{"tool": "test_tool", "args": {"input_text": "boom", "should_fail": true}}',
            XMLFormat(),
            ExecutionContext(tmp_path),
        )
    )
    [error] = result.errors
    assert isinstance(error, ToolExecutionError)
    assert error.model_message == (
        "Tool 'test_tool' failed: Exception: Simulated crash with input: boom"
    )


def test_seed_tool_without_its_text_argument_is_told_what_is_missing() -> None:
    # input_text is not "required" in the schema, but run() has no default for it
    with pytest.raises(InvalidToolArgumentsError) as caught:
        MockTestTool().validate_arguments({})
    assert "Missing required argument 'input_text'" in caught.value.model_message


def test_seed_tool_in_a_whole_run_fills_the_clipboard(tmp_path: Path) -> None:
    model = ScriptedModel(
        [
            '<action>{"tool": "test_tool", "args": {"input_text": "x", "should_fail": true}}'
            "</action>",
            '<action>{"tool": "test_tool", "args": {"input_text": "hi"}}</action>',
            "<answer>done</answer>",
        ]
    )
    agent = Agent(
        model, XMLFormat(), JSONToolChain(), tools=[MockTestTool()], working_directory=tmp_path
    )
    result = agent.run_sync("q")
    assert result.ok
    assert [call.status for step in result.steps[:2] for call in step.calls] == [
        "error",
        "success",
    ]
    assert result.steps[1].clipboard == [{"text": "Processed: hi", "source": "test_tool"}]
    assert "<text>\nProcessed: hi\n</text>" in model.requests[2].messages[-1].text
