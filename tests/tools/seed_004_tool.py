"""Seed 004's example tool, copied verbatim (only the import path adapted)."""
# ruff: noqa: RUF012
# fmt: off

from pathlib import Path
from typing import Any

from gent_core.tools import BaseTool, ToolResult


class MockTestTool(BaseTool):
    name = "test_tool"
    description = "A tool for testing success and failure handling."
    parameters = {
        "type": "object",
        "properties": {
            "input_text": {"type": "string"},
            "should_fail": {"type": "boolean"}
        },
    }

    async def run(
        self, working_directory: Path, input_text: str, should_fail: bool = False, **kwargs: Any
    ) -> ToolResult:
        if should_fail:
            raise Exception(f"Simulated crash with input: {input_text}")

        return ToolResult(
            status="success",
            tool_response="Processed input text successfully and added to the clipboard.",
            results_to_add_to_clipboard=[f"Processed: {input_text}"],
        )
