"""BaseTool: hand-written schemas, validated with coercion, run with the working directory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gent_core.context import ExecutionContext
from gent_core.errors import InvalidToolArgumentsError
from gent_core.testing import run_tool_sync
from gent_core.tools import BaseTool, ToolResult


class WriteNote(BaseTool):
    name = "write_note"
    description = "Write a note to a file and put it on the clipboard."
    parameters = {  # noqa: RUF012
        "type": "object",
        "properties": {
            "filename": {"type": "string", "pattern": r"^[\w.-]+$"},
            "text": {"type": "string"},
            "copies": {"type": "integer", "minimum": 1, "default": 1},
            "mode": {"type": "string", "enum": ["append", "replace"], "default": "replace"},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["filename", "text"],
        "additionalProperties": False,
    }

    async def run(
        self,
        working_directory: Path,
        filename: str,
        text: str,
        copies: int,
        mode: str,
        tags: list[str] | None = None,
    ) -> ToolResult:
        target = working_directory / filename
        content = text * copies
        if mode == "append" and target.exists():
            content = target.read_text() + content
        target.write_text(content)
        return ToolResult(output=f"wrote {len(content)} characters").with_files([filename])


def test_valid_arguments_run_with_the_working_directory(tmp_path: Path) -> None:
    result = run_tool_sync(
        WriteNote(), {"filename": "a.txt", "text": "hi"}, working_directory=tmp_path
    )
    assert (tmp_path / "a.txt").read_text() == "hi"
    assert result.output == "wrote 2 characters"
    assert result.clipboard_files == [Path("a.txt")]


def test_arguments_are_coerced_and_defaults_filled() -> None:
    validated = WriteNote().validate_arguments({"filename": "a.txt", "text": 42, "copies": "3"})
    assert validated == {"filename": "a.txt", "text": "42", "copies": 3, "mode": "replace"}


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (
            {"filename": "a.txt", "text": "x", "copies": "seven"},
            "Argument 'copies': expected an integer, got 'seven'",
        ),
        (
            {"filename": "a.txt", "text": "x", "copies": 0},
            "Argument 'copies': expected a number >= 1, got 0",
        ),
        (
            {"filename": "a.txt", "text": "x", "mode": "delete"},
            "Argument 'mode': expected one of 'append', 'replace', got 'delete'",
        ),
        (
            {"filename": "../etc", "text": "x"},
            r"Argument 'filename': expected a string matching ^[\w.-]+$, got '../etc'",
        ),
        (
            {"filename": "a.txt", "text": "x", "tags": ["ok", {"no": 1}]},
            "Argument 'tags[1]': expected a string, got an object",
        ),
        ({"text": "x"}, "Missing required argument 'filename'"),
        (
            {"filename": "a", "text": "x", "colour": "red"},
            "Unknown argument 'colour'. Accepted arguments: filename, text, copies, mode, tags",
        ),
    ],
)
def test_invalid_arguments_are_explained(arguments: dict[str, Any], expected: str) -> None:
    with pytest.raises(InvalidToolArgumentsError) as caught:
        WriteNote().validate_arguments(arguments)
    assert expected in caught.value.model_message
    assert caught.value.location.tool == "write_note"
    assert "Call it as: write_note(filename: string, text: string" in caught.value.model_message


def test_to_llm_schema_uses_the_hand_written_schema() -> None:
    llm = WriteNote().to_llm_schema()
    assert llm["function"]["name"] == "write_note"
    assert llm["function"]["parameters"] is WriteNote.parameters


def test_sync_run_with_context_and_plain_return_value(tmp_path: Path) -> None:
    class Where(BaseTool):
        name = "where"
        parameters = {  # noqa: RUF012
            "type": "object",
            "properties": {"depth": {"type": "integer"}},
        }

        def run(self, working_directory: Path, context: ExecutionContext, depth: int = 0) -> str:
            return f"{working_directory}|{context.working_directory}|{depth}"

    result = run_tool_sync(Where(), {"depth": "2"}, working_directory=tmp_path)
    assert result.output == f"{tmp_path}|{tmp_path}|2"


def test_schema_set_per_instance() -> None:
    class Choose(BaseTool):
        name = "choose"

        def __init__(self, options: list[str]) -> None:
            self.parameters = {
                "type": "object",
                "properties": {"option": {"enum": options}},
                "required": ["option"],
            }

        async def run(self, working_directory: Path, **kwargs: Any) -> Any:
            return kwargs["option"]

    assert run_tool_sync(Choose(["red", "blue"]), {"option": "blue"}).output == "blue"
    with pytest.raises(InvalidToolArgumentsError, match="expected one of 'a', 'b'"):
        Choose(["a", "b"]).validate_arguments({"option": "c"})


def test_exceptions_from_run_propagate() -> None:
    class Crash(BaseTool):
        name = "crash"

        async def run(self, working_directory: Path, **kwargs: Any) -> Any:
            raise RuntimeError("simulated crash")

    with pytest.raises(RuntimeError, match="simulated crash"):
        run_tool_sync(Crash())


@pytest.mark.parametrize(
    ("schema", "run_source", "message"),
    [
        (
            {"type": "object", "properties": {"x": {"type": "integr"}}},
            "x: int",
            "unknown JSON Schema type",
        ),
        (
            {"type": "object", "properties": {"x": {"$ref": "#/$defs/Nope"}}},
            "x: int",
            "points to nothing",
        ),
        (
            {"type": "object", "properties": {"x": {"type": "string"}}},
            "y: int = 0",
            "does not accept",
        ),
        (
            {"type": "object", "properties": {"x": {"type": "string"}}},
            "x: str, y: int",
            "'y' has no default and is not in the schema",
        ),
        (
            {"type": "object", "properties": {"context": {"type": "string"}}},
            "context: Any, **kw: Any",
            "'context' collides with run\\(\\)'s parameter 'context', which gent fills in",
        ),
        (
            {"type": "object", "properties": {"working_directory": {"type": "string"}}},
            "**kw: Any",
            "'working_directory' collides",
        ),
    ],
)
def test_mistakes_in_the_class_fail_when_it_is_defined(
    schema: dict[str, Any], run_source: str, message: str
) -> None:
    namespace: dict[str, Any] = {"BaseTool": BaseTool, "Any": Any, "Path": Path}
    source = (
        "class Broken(BaseTool):\n"
        "    name = 'broken'\n"
        f"    parameters = {schema!r}\n"
        f"    async def run(self, working_directory: Path, {run_source}) -> Any:\n"
        "        return None\n"
    )
    with pytest.raises(TypeError, match=message):
        exec(source, namespace)


def test_invalid_name_fails_when_the_class_is_defined() -> None:
    with pytest.raises(TypeError, match="invalid tool name"):

        class Bad(BaseTool):
            name = "bad name"

            async def run(self, working_directory: Path, **kwargs: Any) -> Any:
                return None
