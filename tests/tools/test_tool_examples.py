"""Tools declare worked examples (task -> arguments -> result -> answer) on the contract."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gent_core._guidance import example_calls
from gent_core.tools import BaseTool, RenamedTool, Tool, ToolExample, tool


def test_a_tool_has_no_examples_by_default() -> None:
    @tool
    def echo(text: str) -> str:
        """Echo."""
        return text

    assert echo.examples == ()
    assert Tool.examples == ()


def test_the_decorator_takes_examples_and_mappings() -> None:
    @tool(
        examples=[
            ToolExample("Double 4.", {"n": 4}, 8, "Double 4 is 8."),
            {"task": "Double 10.", "arguments": {"n": 10}, "result": 20},
        ]
    )
    def double(n: int) -> int:
        """Double a number."""
        return 2 * n

    first, second = double.examples
    assert (first.task, dict(first.arguments), first.result, first.answer) == (
        "Double 4.",
        {"n": 4},
        8,
        "Double 4 is 8.",
    )
    assert isinstance(second, ToolExample) and second.answer is None
    assert dict(second.arguments) == {"n": 10}


def test_example_arguments_are_checked_when_the_tool_is_made() -> None:
    with pytest.raises(ValueError, match=r"tool 'double', example 1 \('Double x\.'\)") as caught:

        @tool(examples=[ToolExample("Double x.", {"n": "x"}, 0)])
        def double(n: int) -> int:
            """Double a number."""
            return 2 * n

    assert "Argument 'n': expected an integer" in str(caught.value)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"task": "T", "args": {}}, "unknown key(s) args in a tool example"),
        ({"arguments": {}}, "needs a task"),
        ("Double 4.", "a tool example is a ToolExample or a mapping"),
        ({"task": "  "}, "needs a task"),
        ({"task": "T", "arguments": [1]}, "arguments must be a mapping"),
        ({"task": "T", "answer": ""}, "answer must be text"),
    ],
)
def test_malformed_examples_are_refused_with_what_is_accepted(value: Any, message: str) -> None:
    with pytest.raises(ValueError, match=r"tool 'echo', example 1: ") as caught:

        @tool(examples=[value])
        def echo(text: str = "") -> str:
            """Echo."""
            return text

    assert message in str(caught.value)


def test_examples_are_read_only() -> None:
    example = ToolExample("Double 4.", {"n": 4}, 8)
    with pytest.raises(TypeError):
        example.arguments["n"] = 5  # type: ignore[index]
    assert hash(example) == hash(ToolExample("Double 4.", {"n": 5}, 9))  # task and answer


class Grep(BaseTool):
    name = "grep"
    description = "Find lines."
    parameters = {  # noqa: RUF012
        "type": "object",
        "properties": {"pattern": {"type": "string"}, "path": {"type": "string"}},
        "required": ["pattern", "path"],
    }
    examples = (ToolExample("Find TODO in main.py.", {"pattern": "TODO", "path": "main.py"}, []),)

    def run(self, working_directory: Path, pattern: str, path: str) -> list[str]:
        return []


def test_a_base_tool_declares_examples_as_a_class_attribute() -> None:
    assert Grep().examples[0].task == "Find TODO in main.py."


def test_a_base_tool_example_is_checked_when_the_class_is_defined() -> None:
    with pytest.raises(TypeError, match=r"Bad: tool 'bad', example 1 \('Read it\.'\)") as caught:

        class Bad(BaseTool):
            name = "bad"
            parameters = {  # noqa: RUF012
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "required": ["path"],
            }
            examples = ({"task": "Read it.", "arguments": {}, "result": ""},)  # type: ignore[assignment]

            def run(self, working_directory: Path, path: str) -> str:
                return path

    assert "Missing required argument 'path'" in str(caught.value)


def test_a_renamed_tool_keeps_its_examples() -> None:
    renamed = RenamedTool(Grep(), "files_grep")
    assert renamed.examples == Grep.examples


def test_example_calls_use_a_tools_first_declared_example() -> None:
    @tool(examples=[ToolExample("Double 4.", {"n": 4}, 8), ToolExample("Double 5.", {"n": 5}, 10)])
    def double(n: int) -> int:
        """Double a number."""
        return 2 * n

    @tool
    def echo(text: str) -> str:
        """Echo."""
        return text

    assert [(call.tool, call.args) for call in example_calls([echo, double])] == [
        ("echo", {"text": "example text"}),
        ("double", {"n": 4}),
    ]
