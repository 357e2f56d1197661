"""Test doubles for the grammar tests: formats, chains and tools that know nothing of gent's
shipped plugins, so the tests show that the core builds grammars only through the contract.

* :class:`TagDouble` writes ``<name>`` ... ``</name>`` and :class:`BracketDouble`
  ``[[name]] ... [[/name]]``; neither offers a free-text rule (the core's conservative one
  applies).
* :class:`LinesChainDouble` writes one JSON call per line and supplies its grammar with the
  core's JSON-Schema converter; :class:`NoGrammarChainDouble` reads the same but offers no
  grammar.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from gent_core._grammar import GrammarBuilder, JSONSchemaConverter, arguments_schema, repeat_calls
from gent_core._terminations.text import TextTermination
from gent_core.formats import IncrementalParser, TextFormat
from gent_core.model import OutputStructure
from gent_core.sections import FormattedSection, ParsedSection, ParseResult, Section, TextSection
from gent_core.termination import Termination
from gent_core.toolchain import ToolCall, ToolChain
from gent_core.tools.base import Tool
from gent_core.tools.result import ToolResult


class _Formats(TextFormat):
    def incremental_parser(self, sections: Sequence[Section | str]) -> IncrementalParser:
        raise NotImplementedError("not needed by the grammar tests")

    def describe(self, sections: Sequence[Section]) -> str:
        return ""

    def format_sections(self, sections: Sequence[FormattedSection]) -> str:
        return "\n".join(self.format_section(s.name, s.content) for s in sections)

    def stop_sequences(self, sections: Sequence[str]) -> list[str]:
        return []

    def _parse(self, pattern: str, text: str, sections: Sequence[Section | str]) -> ParseResult:
        names = {(s if isinstance(s, str) else s.name).lower(): s for s in sections}
        found = [
            ParsedSection(m.group(1), m.group(2).strip(), raw=m.group(2))
            for m in re.finditer(pattern, text, re.DOTALL | re.IGNORECASE)
            if m.group(1).lower() in names
        ]
        return ParseResult(tuple(found))


class TagDouble(_Formats):
    """``<name>`` ... ``</name>``: only the section's own closing tag ends it."""

    name = "tags"

    def format_section(
        self, name: str, content: str, *, attributes: Mapping[str, str] | None = None
    ) -> str:
        return f"<{name}>\n{content}\n</{name}>"

    def parse(self, text: str, sections: Sequence[Section | str]) -> ParseResult:
        return self._parse(r"<(\w+)>(.*?)</\1>", text, sections)


class BracketDouble(_Formats):
    """``[[name]] ... [[/name]]``."""

    name = "brackets"

    def format_section(
        self, name: str, content: str, *, attributes: Mapping[str, str] | None = None
    ) -> str:
        return f"[[{name}]] {content} [[/{name}]]"

    def parse(self, text: str, sections: Sequence[Section | str]) -> ParseResult:
        return self._parse(r"\[\[(\w+)\]\](.*?)\[\[/\1\]\]", text, sections)


class HeaderDouble(_Formats):
    """``== name`` header lines: a section ends where the next header (or the output) starts;
    generation stops at the observation header."""

    name = "headers"

    def format_section(
        self, name: str, content: str, *, attributes: Mapping[str, str] | None = None
    ) -> str:
        return f"== {name}\n{content}"

    def stop_sequences(self, sections: Sequence[str]) -> list[str]:
        return ["\n== observation"]

    def parse(self, text: str, sections: Sequence[Section | str]) -> ParseResult:
        return self._parse(r"== (\w+)\n(.*?)(?=\n== |\Z)", text, sections)


class NoGrammarChainDouble(ToolChain):
    """JSON calls one after the other, one per line as written: ``{"tool": "x", "args": {}}``;
    offers no grammar."""

    @property
    def guidance(self) -> str:
        return "One JSON call per line."

    def parse(self, content: str) -> list[ToolCall]:
        decoder = json.JSONDecoder()
        calls: list[ToolCall] = []
        position = 0
        while content[position:].strip():
            start = len(content) - len(content[position:].lstrip())
            data, position = decoder.raw_decode(content, start)
            calls.append(ToolCall(data["tool"], dict(data["args"]), f"call_{len(calls)}"))
        return calls

    def format_calls(self, calls: Sequence[ToolCall]) -> str:
        return "\n".join(
            json.dumps({"tool": call.tool, "args": call.args}, ensure_ascii=False) for call in calls
        )


class LinesChainDouble(NoGrammarChainDouble):
    """The same syntax, with a grammar built on the core's JSON-Schema converter."""

    def grammar_calls(self, builder: GrammarBuilder) -> str | None:
        converter = JSONSchemaConverter(builder, prefix="lines")
        alternatives = []
        for tool in self.tools:
            args = converter.convert(arguments_schema(tool), f"{tool.name}-args")
            name = converter.constant(tool.name)
            alternatives.append(
                builder.add(
                    f"{tool.name}-line", f'"{{\\"tool\\": " {name} ", \\"args\\": " {args} "}}"'
                )
            )
        call = builder.add("line-call", " | ".join(alternatives))
        return repeat_calls(call, '"\\n"')


class SchemaTool(Tool):
    """A tool whose arguments are a pydantic model (its JSON Schema is the tool's schema)."""

    def __init__(self, name: str, arguments: type[BaseModel]) -> None:
        self.name = name
        self.description = f"The {name} tool."
        self.arguments = arguments

    @property
    def parameters(self) -> dict[str, Any]:
        return self.arguments.model_json_schema()

    def validate_arguments(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        return self.arguments.model_validate(dict(arguments)).model_dump()

    async def call(self, arguments: Mapping[str, Any], context: Any) -> ToolResult:
        return ToolResult(output=dict(arguments))


class CalculatorArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    expression: str = Field(description="Arithmetic.", examples=["6 * 7"])


class SearchArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: str
    limit: int | None = None
    exact: bool = False


class Meta(BaseModel):
    model_config = ConfigDict(extra="forbid")
    score: float
    owner: str | None = None


class NoteArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str = "untitled"
    tags: list[str] = []
    priority: Literal["low", "high"] = "low"
    meta: Meta | None = None


class ClockArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")


CALCULATOR = SchemaTool("calculator", CalculatorArgs)
SEARCH = SchemaTool("search", SearchArgs)
NOTE = SchemaTool("write_note", NoteArgs)
CLOCK = SchemaTool("clock", ClockArgs)
TOOLS = [CALCULATOR, SEARCH, NOTE, CLOCK]

FORMATS: dict[str, type[TextFormat]] = {
    "tags": TagDouble,
    "brackets": BracketDouble,
    "headers": HeaderDouble,
}
CHAINS: dict[str, type[ToolChain]] = {"lines": LinesChainDouble, "free": NoGrammarChainDouble}


def structure(
    format_name: str,
    chain_name: str | None,
    termination: Termination | None = None,
    tools: Sequence[Tool] = TOOLS,
    text_format: TextFormat | None = None,
) -> OutputStructure:
    """An OutputStructure with a thinking section, the chain (if any) and a termination."""
    fmt = text_format if text_format is not None else FORMATS[format_name]()
    chain = CHAINS[chain_name](tools) if chain_name else None
    term = termination if termination is not None else TextTermination()
    sections: list[Section] = [TextSection("thinking", "Think.")]
    if chain is not None:
        sections.append(chain)
    sections.append(term)
    return OutputStructure(fmt, sections, chain, term)
