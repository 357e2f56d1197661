"""A back end that stops on a stop sequence drops it; the agent restores what the format says
the stop took and closes the parse, so a format that decides its closing line only at the line
end (or at the end of the output) still gets a complete action."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence

from gent_json import JSONToolChain

from gent_core._agent import Agent
from gent_core.formats import IncrementalParser, TextFormat
from gent_core.sections import (
    FormattedSection,
    ParsedSection,
    ParseResult,
    Section,
    SectionEnded,
    SectionEvent,
    SectionStarted,
    section_names,
)
from gent_core.testing import ScriptedModel
from gent_core.tools import tool


class _LineParser(IncrementalParser):
    """Reads whole lines: ``::: name`` opens, ``::: /name`` closes (decided at the line end)."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = {name.lower(): name for name in names}
        self.pending = ""
        self.open: tuple[str, list[str]] | None = None
        self.found: list[ParsedSection] = []

    def _line(self, line: str) -> list[SectionEvent]:
        text = line.strip().lower()
        if self.open is None:
            name = self.names.get(text.removeprefix("::: "))
            if text.startswith("::: ") and name is not None:
                self.open = (name, [])
                return [SectionStarted(name)]
            return []
        name, lines = self.open
        if text == f"::: /{name.lower()}":
            raw = "\n".join(lines)
            self.found.append(ParsedSection(name, raw.strip(), raw=raw))
            self.open = None
            return [SectionEnded(self.found[-1])]
        lines.append(line)
        return []

    def feed(self, chunk: str) -> list[SectionEvent]:
        self.pending += chunk
        *lines, self.pending = self.pending.split("\n")
        return [event for line in lines for event in self._line(line)]

    def close(self) -> list[SectionEvent]:
        events = self._line(self.pending) if self.pending else []
        self.pending = ""
        if self.open is not None:
            name, lines = self.open
            raw = "\n".join(lines)
            self.found.append(ParsedSection(name, raw.strip(), complete=False, raw=raw))
            self.open = None
            events.append(SectionEnded(self.found[-1]))
        return events

    def result(self) -> ParseResult:
        return ParseResult(tuple(self.found))


class LineFormat(TextFormat):
    name = "lines"

    def describe(self, sections: Sequence[Section]) -> str:
        return ""

    def parse(self, text: str, sections: Sequence[Section | str]) -> ParseResult:
        parser = self.incremental_parser(sections)
        parser.feed(text)
        parser.close()
        return parser.result()

    def incremental_parser(self, sections: Sequence[Section | str]) -> IncrementalParser:
        return _LineParser(section_names(sections))

    def format_section(
        self, name: str, content: str, *, attributes: Mapping[str, str] | None = None
    ) -> str:
        return f"::: {name}\n{content}\n::: /{name}"

    def format_sections(self, sections: Sequence[FormattedSection]) -> str:
        return "\n".join(self.format_section(s.name, s.content) for s in sections)

    def stop_sequences(self, sections: Sequence[str]) -> list[str]:
        return [f"::: /{name}" for name in sections]


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def test_an_action_stopped_on_its_closing_line_is_restored_and_runs() -> None:
    fmt = LineFormat()
    action = fmt.format_sections(
        [
            FormattedSection("thinking", "Add them."),
            FormattedSection("action", '{"tool": "add", "args": {"a": 2, "b": 3}}'),
        ]
    )
    # The model goes on after the action; the back end stops at "::: /action" and drops it.
    outputs = [action + "\n::: observation\nmade up", fmt.format_section("answer", "5")]
    agent = Agent(ScriptedModel(outputs), fmt, JSONToolChain(), tools=[add])
    result = asyncio.run(agent.run("What is 2 + 3?"))
    assert result.stop_reason == "answer", result.message
    first = result.steps[0]
    assert first.outcome == "action", first.feedback
    assert first.output.endswith("::: /action")  # the dropped stop sequence, restored
    assert [call.output for call in first.calls] == [5]
