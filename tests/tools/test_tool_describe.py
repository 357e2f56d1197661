"""One-line renderings of tools for prompts."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from gent_core.tools import BaseTool, describe_signature, describe_tool, describe_tools, tool


class Point(BaseModel):
    x: int
    y: int = 0


@tool
def calculator(expression: Annotated[str, Field(description="an arithmetic expression")]) -> float:
    """Evaluate an arithmetic expression.

    Details that only the full description shows.
    """
    return 0.0


def test_describe_tool_compact_line() -> None:
    assert describe_tool(calculator) == (
        "calculator(expression: string — an arithmetic expression) — "
        "Evaluate an arithmetic expression."
    )
    assert describe_tool(calculator, full=True).endswith(
        "Evaluate an arithmetic expression. Details that only the full description shows."
    )


def test_types_defaults_and_optional_markers() -> None:
    @tool
    def f(
        unit: Literal["c", "f"],
        points: list[Point],
        weights: dict[str, float],
        limit: int | None = None,
        name: str = "x",
    ) -> None:
        """Do f."""

    assert describe_signature(f) == (
        'f(unit: "c" | "f", points: list[{x: integer, y: integer = 0}], '
        'weights: dict[string, number], limit: integer | null = null, name: string = "x")'
    )


def test_arguments_with_descriptions_are_separated_by_semicolons() -> None:
    @tool
    def search(query: str, limit: int = 5) -> list[str]:
        """Search the web.

        Args:
            query: What to look for, in a few words.
            limit: Results to return.
        """
        return []

    assert describe_tool(search) == (
        "search(query: string — What to look for, in a few words.; "
        "limit: integer = 5 — Results to return.) — Search the web."
    )


def test_hand_written_schema_and_optional_without_default() -> None:
    class Grep(BaseTool):
        name = "grep"
        description = "Find lines."
        parameters = {  # noqa: RUF012
            "type": "object",
            "properties": {"pattern": {"type": "string"}, "max": {"type": "integer"}},
            "required": ["pattern"],
        }

        async def run(self, working_directory: Path, **kwargs: Any) -> Any:
            return None

    assert describe_tool(Grep()) == "grep(pattern: string, max?: integer) — Find lines."


def test_describe_tools_one_per_line() -> None:
    @tool
    def ping() -> str:
        return "pong"

    assert describe_tools([calculator, ping]).splitlines() == [
        "- " + describe_tool(calculator),
        "- ping()",
    ]
