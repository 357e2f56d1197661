"""Test doubles of the contracts: a format that only writes, a chain of bare tool names.

Tests that need *a* format or *a* tool chain (to format an observation, to make ``describe``
see a chain) use these instead of writing their own: :class:`PlainFormat` and
:class:`StubChain`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from gent_core.formats import IncrementalParser, TextFormat
from gent_core.sections import FormattedSection, ParseResult, Section
from gent_core.toolchain import ToolCall, ToolChain

if TYPE_CHECKING:
    from gent_core.tools.base import Tool

__all__ = ["PlainFormat", "StubChain"]


class PlainFormat(TextFormat):
    """A format that writes each section as a ``[name]`` line, then its content; nested
    sections are indented by two spaces. Enough for formatting observations and prompts.

    ``describe`` lists ``[name] guidance`` lines. It stops on nothing and reads nothing:
    :meth:`parse` and :meth:`incremental_parser` raise :class:`NotImplementedError`, so a test
    that parses by mistake fails loudly.
    """

    name = "plain"

    def describe(self, sections: Sequence[Section]) -> str:
        """One ``[name] guidance`` line per section."""
        return "\n".join(f"[{section.name}] {section.guidance}" for section in sections)

    def parse(self, text: str, sections: Sequence[Section | str]) -> ParseResult:
        """Not supported: :class:`PlainFormat` only writes."""
        raise NotImplementedError("PlainFormat only writes sections; use a real format to parse")

    def incremental_parser(self, sections: Sequence[Section | str]) -> IncrementalParser:
        """Not supported: :class:`PlainFormat` only writes."""
        raise NotImplementedError("PlainFormat only writes sections; use a real format to parse")

    def format_section(
        self, name: str, content: str, *, attributes: Mapping[str, str] | None = None
    ) -> str:
        """``[name]``, a line end, the content (attributes are not written)."""
        return f"[{name}]\n{content}"

    def format_sections(self, sections: Sequence[FormattedSection]) -> str:
        """The sections one after the other, children indented by two spaces."""
        parts = []
        for section in sections:
            body = section.content
            if section.children:
                inner = self.format_sections(section.children)
                body = "\n".join(filter(None, [body, _indent(inner)]))
            parts.append(self.format_section(section.name, body))
        return "\n".join(parts)

    def stop_sequences(self, sections: Sequence[str]) -> list[str]:
        """None: the format has no closing delimiters."""
        return []


def _indent(text: str) -> str:
    return "\n".join("  " + line if line else line for line in text.splitlines())


class StubChain(ToolChain):
    """A tool chain whose calls are bare tool names, one per line, without arguments.

    Args:
        tools: The tools the model may call.
        section_name: The section the calls are written in.
        guidance: Its prompt guidance.
    """

    def __init__(
        self,
        tools: Sequence[Tool] = (),
        *,
        section_name: str = "action",
        guidance: str = "Write one tool name per line.",
    ) -> None:
        super().__init__(tools, section_name=section_name)
        self._guidance = guidance

    @property
    def guidance(self) -> str:
        """The guidance given when the chain was made."""
        return self._guidance

    def parse(self, content: str) -> list[ToolCall]:
        """One call per non-empty line, named by the line (ids ``call_0``, ``call_1``...)."""
        names = [line.strip() for line in content.splitlines() if line.strip()]
        return [ToolCall(name, {}, f"call_{index}") for index, name in enumerate(names)]

    def format_calls(self, calls: Sequence[ToolCall]) -> str:
        """The calls' tool names, one per line (arguments are not written).

        Raises:
            ValueError: A call with arguments, which this syntax cannot hold.
        """
        if any(call.args for call in calls):
            raise ValueError("StubChain writes bare tool names; it cannot write arguments")
        return "\n".join(call.tool for call in calls)
