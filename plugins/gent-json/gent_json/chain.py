"""The ``json`` tool chain: tool calls written as JSON, results written back as JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gent_core.bounds import dumps_json
from gent_core.guidance import call_guidance
from gent_core.toolchain import ToolCall, ToolChain
from gent_core.tools.base import Tool
from gent_json.reading import read_json_calls

if TYPE_CHECKING:
    from gent_core.grammar import GrammarBuilder

__all__ = ["JSONToolChain"]


class JSONToolChain(ToolChain):
    """Tool calls written as JSON: ``{"tool": "search", "args": {"query": "..."}}``.

    One call is an object; several calls are a list of objects (they run concurrently).
    Parsing is lenient where models are messy and strict where guessing would be wrong: see
    :func:`gent_json.read_json_calls`. Results are written as JSON (a string
    result as it is).

    Args:
        tools: The tools the model may call.
        section_name: The section the calls are written in.
        indent: Indentation of JSON results; ``None`` writes each on one line.
    """

    def __init__(
        self,
        tools: Sequence[Tool] = (),
        *,
        section_name: str = "action",
        indent: int | None = None,
    ) -> None:
        super().__init__(tools, section_name=section_name)
        self.indent = indent

    @property
    def guidance(self) -> str:
        """The JSON call syntax with an example, then every tool with its arguments."""
        return call_guidance(
            self,
            syntax='Call tools by writing JSON: an object with "tool" (the tool\'s name) and '
            '"args" (its arguments), ',
            several="write a list of calls",
            written="the JSON",
        )

    def parse(self, content: str) -> list[ToolCall]:
        """Read the JSON calls in ``content`` (ids ``call_0``, ``call_1``...).

        Raises:
            TruncatedCallError: A call was cut off.
            InvalidJSONError: A call is not valid JSON, or there is prose but no call.
            MissingToolNameError: A call does not name its tool.
        """
        return read_json_calls(content, section=self.name)

    def format_calls(self, calls: Sequence[ToolCall]) -> str:
        """One call as a JSON object on one line, several as a list of them:
        ``{"tool": "search", "args": {"query": "cats"}}``.

        Raises:
            ValueError: When an argument is not JSON (a set, NaN...).
        """
        objects = [{"tool": call.tool, "args": call.args} for call in calls]
        value: Any = objects[0] if len(objects) == 1 else objects
        return json.dumps(value, ensure_ascii=False, allow_nan=False)

    def grammar_calls(self, builder: GrammarBuilder) -> str:
        """One JSON call object, or a list of up to ``builder.max_calls``, of the chain's tools
        with arguments valid for their schemas (see :func:`gent_json.grammar.json_calls`).
        """
        from gent_json.grammar import json_calls

        return json_calls(builder, self.tools)

    def format_output(self, output: Any) -> str:
        """A string as it is; anything else as JSON (pydantic models, dataclasses...)."""
        if isinstance(output, str):
            return output
        return dumps_json(output, indent=self.indent)
