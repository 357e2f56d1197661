"""The ``natural`` tool chain: calls written as ``<tool_call name="X">{json}</tool_call>``.

Many open models are trained to call tools with such tags; with this chain gent's own loop
runs them in their native style. Results come back in the observation like with every chain.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from gent_core.guidance import call_guidance
from gent_core.textscan import format_attributes
from gent_core.toolchain import ToolCall, ToolChain
from gent_natural.tagcalls import read_tag_calls, write_tag_calls

if TYPE_CHECKING:
    from gent_core.grammar import GrammarBuilder
    from gent_core.tools.base import Tool

__all__ = ["NaturalToolChain"]


class NaturalToolChain(ToolChain):
    """Tool calls written as tags, one per call.

    For example::

        <tool_call name="get_weather">
        {
          "city": "Paris"
        }
        </tool_call>

    Several tags are several calls (they run concurrently). The Hermes/Qwen form
    ``<tool_call>{"name": "get_weather", "arguments": {...}}</tool_call>`` is read too, and
    the arguments may be fenced; see :func:`~gent_natural.tagcalls.read_tag_calls`.

    Args:
        tools: The tools the model may call.
        section_name: The section the calls are written in.
        indent: Indentation of the arguments in written calls (guidance, few-shot examples);
            ``None`` writes them on one line.
    """

    def __init__(
        self,
        tools: Sequence[Tool] = (),
        *,
        section_name: str = "action",
        indent: int | None = 2,
    ) -> None:
        if indent is not None and (isinstance(indent, bool) or not isinstance(indent, int)):
            raise ValueError(f"indent must be a whole number or null, got {indent!r}")
        super().__init__(tools, section_name=section_name)
        self.indent = indent

    @property
    def guidance(self) -> str:
        """The tag syntax with an example, then every tool with its arguments."""
        return call_guidance(
            self,
            syntax="Call a tool by writing a <tool_call> tag naming it, with its arguments as a "
            "JSON object inside, ",
            several="write one tag after the other",
            written="the tags",
        )

    def parse(self, content: str) -> list[ToolCall]:
        """Read the ``<tool_call>`` tags in ``content`` (ids ``call_0``, ``call_1``...).

        Raises:
            TruncatedCallError: A tag was cut off.
            InvalidJSONError: Arguments that are not one JSON object, or prose but no call.
            MissingToolNameError: A tag that does not name its tool.
            ParseError: A tag naming its tool twice, or holding another ``<tool_call>``.
        """
        return read_tag_calls(content, section=self.name)

    def format_calls(self, calls: Sequence[ToolCall]) -> str:
        """Write ``calls`` as tags, one after the other (the inverse of :meth:`parse`).

        Raises:
            ValueError: Arguments JSON cannot hold (``NaN``, infinities).
        """
        return write_tag_calls(calls, indent=self.indent)

    def grammar_calls(self, builder: GrammarBuilder) -> str | None:
        """The GBNF of 1 to ``builder.max_calls`` tags, each naming one of
        :attr:`tools` with arguments valid for its schema, written as :meth:`format_calls`
        writes them on one line or indented. ``None`` without tools.
        """
        if not self.tools:
            return None
        from gent_core.grammar import JSONSchemaConverter, arguments_schema, repeat_calls

        converter = JSONSchemaConverter(builder, flavor="json", xml_safe=True)
        alternatives = []
        for tool in self.tools:
            opening = f"<tool_call {format_attributes({'name': tool.name})}>"
            arguments = converter.convert(arguments_schema(tool), f"{tool.name}-args")
            alternatives.append(
                f'{builder.literal(opening)} "\\n" {arguments} "\\n" "</tool_call>"'
            )
        call = builder.add("natural-call", " | ".join(f"( {alt} )" for alt in alternatives))
        return repeat_calls(call, '"\\n"', max_calls=builder.max_calls)
