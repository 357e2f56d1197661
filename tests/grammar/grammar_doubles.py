"""Test doubles for the grammar tests: formats, chains and tools shaped like the real plugins.

Core tests never import plugins, so these mimic ``gent-xml`` / ``gent-markdown`` (sections
written by ``format_section``) and ``gent-json`` / ``gent-yaml`` (calls parsed with the json
and yaml modules), enough to check that every output a grammar allows is read back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

from gent_core.formats import IncrementalParser, TextFormat
from gent_core.model import OutputStructure
from gent_core.sections import FormattedSection, ParsedSection, ParseResult, Section, TextSection
from gent_core.termination import Termination
from gent_core.terminations.text import TextTermination
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


class XMLDouble(_Formats):
    name = "xml"

    def format_section(
        self, name: str, content: str, *, attributes: Mapping[str, str] | None = None
    ) -> str:
        return f"<{name}>\n{content}\n</{name}>"

    def parse(self, text: str, sections: Sequence[Section | str]) -> ParseResult:
        names = [s if isinstance(s, str) else s.name for s in sections]
        found = []
        for match in re.finditer(r"<(\w+)>(.*?)</\1>", text, re.DOTALL):
            if match.group(1) in names:
                found.append(ParsedSection(match.group(1), match.group(2).strip()))
        return ParseResult(tuple(found))


class MarkdownDouble(_Formats):
    name = "markdown"

    def format_section(
        self, name: str, content: str, *, attributes: Mapping[str, str] | None = None
    ) -> str:
        return f"# {name.capitalize()}\n{content}"

    def format_sections(self, sections: Sequence[FormattedSection]) -> str:
        return "\n\n".join(self.format_section(s.name, s.content) for s in sections)

    def parse(self, text: str, sections: Sequence[Section | str]) -> ParseResult:
        names = {(s if isinstance(s, str) else s.name).lower() for s in sections}
        found: list[ParsedSection] = []
        current: str | None = None
        lines: list[str] = []
        for line in [*text.split("\n"), "# End-Of-Text"]:
            header = re.fullmatch(r"# (\S+)", line)
            if header and (header.group(1).lower() in names or line == "# End-Of-Text"):
                if current is not None:
                    found.append(ParsedSection(current, "\n".join(lines).strip()))
                current, lines = header.group(1).lower(), []
            elif current is not None:
                lines.append(line)
        return ParseResult(tuple(found))


class BracketDouble(_Formats):
    """A format gent has no built-in rules for: ``[[name]] ... [[/name]]``."""

    name = "brackets"

    def format_section(
        self, name: str, content: str, *, attributes: Mapping[str, str] | None = None
    ) -> str:
        return f"[[{name}]] {content} [[/{name}]]"

    def parse(self, text: str, sections: Sequence[Section | str]) -> ParseResult:
        found = [
            ParsedSection(m.group(1), m.group(2).strip())
            for m in re.finditer(r"\[\[(\w+)\]\](.*?)\[\[/\1\]\]", text, re.DOTALL)
        ]
        return ParseResult(tuple(found))


class _Chain(ToolChain):
    @property
    def guidance(self) -> str:
        return ""

    def _calls(self, data: Any) -> list[ToolCall]:
        items = data if isinstance(data, list) else [data]
        return [ToolCall(item["tool"], dict(item["args"] or {})) for item in items]


class JSONChainDouble(_Chain):
    def parse(self, content: str) -> list[ToolCall]:
        return self._calls(json.loads(content))


class YAMLChainDouble(_Chain):
    def parse(self, content: str) -> list[ToolCall]:
        return self._calls(yaml.safe_load(content))


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
    expression: str = Field(description="Arithmetic.")


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

FORMATS: dict[str, type[TextFormat]] = {"xml": XMLDouble, "markdown": MarkdownDouble}
CHAINS: dict[str, type[ToolChain]] = {"json": JSONChainDouble, "yaml": YAMLChainDouble}


def structure(
    format_name: str,
    chain_name: str | None,
    termination: Termination | None = None,
    tools: Sequence[Tool] = TOOLS,
) -> OutputStructure:
    """An OutputStructure with a thinking section, the chain (if any) and a termination."""
    text_format = FORMATS[format_name]() if format_name in FORMATS else BracketDouble()
    chain = CHAINS[chain_name](tools) if chain_name else None
    term = termination if termination is not None else TextTermination()
    sections: list[Section] = [TextSection("thinking", "Think.")]
    if chain is not None:
        sections.append(chain)
    sections.append(term)
    return OutputStructure(text_format, sections, chain, term)
