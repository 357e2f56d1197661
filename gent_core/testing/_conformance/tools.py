"""Tools the conformance checks call: small, with the argument shapes real tools have
(strings, numbers, enums, optional values, lists of objects, multi-line text, none at all),
and names as real tools have them (``fetch-page``, ``math.factorial``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from gent_core.tools._basetool import BaseTool
from gent_core.tools._function import tool
from gent_core.tools.base import Tool

__all__ = ["KIT_TOOLS"]


@tool
def calculator(
    expression: Annotated[str, Field(description="an arithmetic expression", examples=["6 * 7"])],
) -> str:
    """Evaluate an arithmetic expression."""
    return expression


@tool
def search(query: str, limit: int = 5, language: Literal["en", "fr"] = "en") -> list[str]:
    """Search the web."""
    return [query] * limit


@tool
def write_file(path: str, content: str) -> str:
    """Write a text file."""
    return f"{len(content)} characters written to {path}"


class Point(BaseModel):
    """A point of a plot."""

    x: float
    y: float


@tool
def plot(points: list[Point], title: str | None = None) -> str:
    """Plot points."""
    return title or ""


@tool
def current_time(
    timezone: Annotated[
        str | None, Field(description="an IANA time zone such as Europe/Paris")
    ] = None,
) -> str:
    """Tell the current time."""
    return timezone or "UTC"


@tool
def clock() -> str:
    """Tell the local time."""
    return "09:30"


@tool
def annotate(text: str, labels: dict[str, Any]) -> str:
    """Attach free-form labels (any keys, any values) to a text."""
    return f"{text} {sorted(labels)}"


class FetchPage(BaseTool):
    """A tool whose name and argument names are not identifiers (``fetch-page``,
    ``max-bytes``), as MCP servers and hand-written schemas have them.
    """

    name = "fetch-page"
    description = "Fetch a web page."
    parameters = {  # noqa: RUF012 - the tool's schema, read only
        "type": "object",
        "properties": {
            "url": {"type": "string", "description": "the page's address"},
            "max-bytes": {"type": "integer", "description": "most bytes to read"},
        },
        "required": ["url"],
        "additionalProperties": False,
    }

    async def run(self, working_directory: Path, **arguments: Any) -> str:
        """Return what would be fetched."""
        del working_directory
        return f"fetched {arguments.get('url')}"


@tool(name="math.factorial")
def factorial(number: Annotated[int, Field(description="a whole number")]) -> int:
    """Calculate the factorial of a number (a dotted name, as Python paths and MCP servers
    name tools).
    """
    result = 1
    for factor in range(2, min(number, 20) + 1):
        result *= factor
    return result


KIT_TOOLS: tuple[Tool, ...] = (
    calculator,
    search,
    write_file,
    plot,
    current_time,
    clock,
    annotate,
    FetchPage(),
    factorial,
)
"""The tools :class:`~gent_core.testing.ChainConformance` gives the chain by default."""
