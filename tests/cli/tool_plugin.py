"""A plugin whose tools use every channel of a tool result, take options, fail and sleep."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from gent_core import hookimpl
from gent_core.context import ExecutionContext
from gent_core.messages import ImagePart
from gent_core.tools import BaseTool, ToolResult, tool
from gent_core.tools.base import Tool
from gent_core.toolsets import Toolset

PIXEL = b"\x89PNG\r\n\x1a\nnot really"


@tool
def snapshot(label: str, context: ExecutionContext, notes: int = 1) -> ToolResult:
    """Take a picture of something; put notes and the notes file aside.

    Args:
        label: What to photograph.
        notes: How many notes to put on the clipboard.
    """
    (context.working_directory / "notes.txt").write_text("the notes\n")
    return ToolResult(
        output={"label": label},
        media=[ImagePart(PIXEL, "image/png")],
        clipboard_text=[f"note {index} about {label}" for index in range(1, notes + 1)],
        clipboard_files=[Path("notes.txt")],
    )


@tool
def nap(seconds: float) -> str:
    """Sleep, then say so."""
    time.sleep(seconds)
    return "rested"


@tool
def where(context: ExecutionContext) -> str:
    """Say which directory the tool works in."""
    return str(context.working_directory)


class Greeter(BaseTool):
    """A tool class that must be built with options."""

    name = "greet"
    description = "Greet someone in the configured language."
    parameters = {  # noqa: RUF012
        "type": "object",
        "properties": {"who": {"type": "string"}},
        "required": ["who"],
    }

    def __init__(self, language: str, excited: bool = False) -> None:
        self.language = language
        self.excited = excited

    async def run(self, working_directory: Path, who: str) -> str:
        greeting = {"en": "Hello", "fr": "Bonjour"}[self.language]
        return f"{greeting}, {who}" + ("!" if self.excited else ".")


class Notebook(Toolset):
    """A toolset (like an MCP server) with one tool of its own."""

    def __init__(self, name: str = "") -> None:
        self.name = name

    async def open(self, working_directory: Path) -> Sequence[Tool]:
        @tool
        def jot(text: str) -> str:
            """Write something down."""
            return f"noted: {text}"

        return [jot]

    def describe(self) -> str:
        return f"notebook {self.name}"


class DemoTools:
    @hookimpl
    def gent_register_tools(self) -> Sequence[Any]:
        return [snapshot, nap, where, Greeter]

    @hookimpl
    def gent_register_toolsets(self) -> Mapping[str, Callable[..., Toolset]]:
        return {"notebook": Notebook}
