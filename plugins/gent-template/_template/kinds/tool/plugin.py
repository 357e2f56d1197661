"""The ``template`` tool.

Replace it with your own: a typed function, its docstring and its argument descriptions
become what the model reads.

Keep this module light (it is imported when gent lists plugins): import heavy libraries
inside the tool's function.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from gent_core import hookimpl
from gent_core.tools import Tool, ToolResult, tool
from pydantic import Field

__all__ = ["gent_register_tools", "template"]

LONG_TEXT = 2000
"""Results longer than this go to the agent's clipboard instead of the conversation."""


@tool
def template(text: str, times: Annotated[int, Field(ge=1, le=10)] = 1) -> ToolResult:
    """Repeat a text and count its characters.

    Args:
        text: The text to repeat.
        times: How many times to repeat it, 1 to 10.
    """
    repeated = " ".join([text] * times)
    if len(repeated) > LONG_TEXT:
        # A long result goes to the clipboard; the conversation only gets a note.
        return ToolResult(
            output={"characters": len(repeated), "note": "the text is on the clipboard"},
            clipboard_text=[repeated],
        )
    return ToolResult(output={"text": repeated, "characters": len(repeated)})


@hookimpl
def gent_register_tools() -> Sequence[Tool]:
    """Supply the ``template`` tool."""
    return [template]
