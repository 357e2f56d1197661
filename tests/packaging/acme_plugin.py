"""The source of ``gent-acme``, a throwaway third-party plugin written only against gent's
public contract: a format and two tool chains the core has never heard of (issue 10's
acceptance test installs it into a fresh virtual environment).

* the ``brackets`` format: ``[[name]]`` ... ``[[/name]]``; it offers no free-text rule, so its
  free text gets the core's conservative rule, derived from its delimiters;
* the ``acme`` tool chain: one ``CALL tool {json arguments}`` line per call, with its own
  grammar (built on the core's JSON-Schema converter);
* the ``acme-free`` tool chain: the same syntax without a grammar (an unconstrained section).
"""

SOURCE = r'''
"""gent-acme: a throwaway format and tool chains, written against gent's public contract."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence

from gent_core import hookimpl
from gent_core.errors import InvalidJSONError, Location, NoSectionsFoundError
from gent_core.formats import IncrementalParser, TextFormat, guidance_list
from gent_core._grammar import GrammarBuilder, JSONSchemaConverter, arguments_schema, repeat_calls
from gent_core._guidance import guidance_calls
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
from gent_core.toolchain import ToolCall, ToolChain

# [[name]], or [[name:N]] when the next N characters are the content, verbatim (how content
# holding brackets is written).
_OPEN = re.compile(r"\[\[([A-Za-z_][\w.]*)(?::(\d{1,9}))?\]\]")  # tool names hold dots


class BracketParser(IncrementalParser):
    """Reports a section as soon as its opening or closing marker is complete; the final
    result is the one-shot parse of everything fed (so the two always agree)."""

    def __init__(self, text_format: BracketFormat, sections: Sequence[Section | str]) -> None:
        self.format = text_format
        self.sections = sections
        self.wanted = {name.lower(): name for name in section_names(sections)}
        self.text = ""
        self.lowered = ""
        self.position = 0
        self.open: tuple[str, int, int, int | None] | None = None  # name, start, body, length

    def feed(self, chunk: str) -> list[SectionEvent]:
        self.text += chunk
        self.lowered += chunk.lower()
        events: list[SectionEvent] = []
        while True:
            if self.open is None:
                at = self.text.find("[[", self.position)
                if at < 0:
                    self.position = max(self.position, len(self.text) - 1)
                    return events
                opening = _OPEN.match(self.text, at)
                if opening is None:
                    if len(self.text) - at < 40 and "]]" not in self.text[at + 2 : at + 40]:
                        self.position = at
                        return events  # may still become a marker
                    self.position = at + 2
                    continue
                name = self.wanted.get(opening.group(1).lower())
                self.position = opening.end()
                if name is None:
                    continue
                length = int(opening.group(2)) if opening.group(2) is not None else None
                self.open = (name, at, opening.end(), length)
                events.append(SectionStarted(name))
                continue
            name, start, body, length = self.open
            marker = f"[[/{name.lower()}]]"
            if length is not None:
                closing = body + length
                if len(self.text) < closing + len(marker):
                    return events
                if not self.lowered.startswith(marker, closing):
                    return events  # never closes: reported as cut off at the end
            else:
                closing = self.lowered.find(marker, self.position)
                if closing < 0:
                    self.position = max(self.position, len(self.text) - len(marker))
                    return events
            raw = self.text[body:closing]
            end = closing + len(marker)
            section = ParsedSection(name, raw.strip(), start=start, end=end, raw=raw)
            events.append(SectionEnded(section))
            self.open = None
            self.position = end

    def close(self) -> list[SectionEvent]:
        if self.open is None:
            return []
        name, start, body, _ = self.open
        raw = self.text[body:]
        self.open = None
        return [
            SectionEnded(
                ParsedSection(
                    name, raw.strip(), start=start, end=len(self.text), complete=False, raw=raw
                )
            )
        ]

    def result(self) -> ParseResult:
        return self.format.parse(self.text, self.sections)


class BracketFormat(TextFormat):
    """Sections as ``[[name]]`` ... ``[[/name]]``."""

    name = "brackets"

    def describe(self, sections: Sequence[Section]) -> str:
        names = section_names(sections)
        skeleton = "\n".join(f"[[{name}]]\n...\n[[/{name}]]" for name in names)
        lines = ["Write your response in sections, each between its markers:", "", skeleton, ""]
        lines += guidance_list(sections, lambda name: f"[[{name}]]")
        return "\n".join(lines)

    def parse(self, text: str, sections: Sequence[Section | str]) -> ParseResult:
        wanted = {name.lower(): name for name in section_names(sections)}
        lowered = text.lower()
        found: list[ParsedSection] = []
        outside: list[str] = []
        position = 0
        while True:
            opening = _OPEN.search(text, position)
            if opening is None:
                outside.append(text[position:])
                break
            if opening.group(1).lower() not in wanted:
                outside.append(text[position : opening.end()])
                position = opening.end()
                continue
            outside.append(text[position : opening.start()])
            name = wanted[opening.group(1).lower()]
            marker = f"[[/{name.lower()}]]"
            start = opening.end()
            if opening.group(2) is not None:  # a verbatim body of known length
                body_end = start + int(opening.group(2))
                closing = body_end if lowered.startswith(marker, body_end) else -1
            else:
                closing = lowered.find(marker, start)
                body_end = closing
            complete = closing >= 0 and body_end <= len(text)
            raw = text[start : body_end if complete else len(text)]
            end = closing + len(marker) if complete else len(text)
            found.append(
                ParsedSection(
                    name, raw.strip(), start=opening.start(), end=end, complete=complete, raw=raw
                )
            )
            if not complete:
                break
            position = end
        if not found:
            raise NoSectionsFoundError(
                list(wanted.values()), format_name=self.name, example=self.example(sections)
            )
        leftover = "\n".join(part.strip() for part in outside if part.strip())
        return ParseResult(tuple(found), leftover)

    def incremental_parser(self, sections: Sequence[Section | str]) -> IncrementalParser:
        return BracketParser(self, sections)

    def format_section(
        self, name: str, content: str, *, attributes: Mapping[str, str] | None = None
    ) -> str:
        body = f"\n{content}\n"
        if "[[" in content or "]]" in content:  # could read as a marker: say its length
            return f"[[{name}:{len(body)}]]{body}[[/{name}]]"
        return f"[[{name}]]{body}[[/{name}]]"

    def format_sections(self, sections: Sequence[FormattedSection]) -> str:
        return "\n".join(
            self.format_section(
                section.name,
                section.content
                + ("\n" if section.content and section.children else "")
                + self.format_sections(section.children),
            )
            for section in sections
        )

    def stop_sequences(self, sections: Sequence[str]) -> list[str]:
        return [f"[[/{name}]]" for name in sections]


_CALL = re.compile(r"CALL\s+([A-Za-z_][\w.-]*)\s+(\{.*)")


class AcmeChain(ToolChain):
    """Calls as lines: ``CALL calculator {"expression": "6 * 7"}``."""

    @property
    def guidance(self) -> str:
        examples = guidance_calls(self)
        lines = ["Write one line per call: CALL, the tool's name, its arguments as JSON."]
        lines += ["For example:", self.format_calls(examples[:1])]
        lines += ["Several calls:", self.format_calls(examples)]
        return "\n".join([*lines, "Tools:", self.describe_tools() or "(none)"])

    def parse(self, content: str) -> list[ToolCall]:
        calls = []
        for line in content.split("\n"):
            if not line.strip():
                continue
            match = _CALL.fullmatch(line.strip())
            try:
                if match is None:
                    raise ValueError("not a CALL line")
                args = json.loads(match.group(2))
                if not isinstance(args, dict):
                    raise ValueError("the arguments are not a JSON object")
            except ValueError as error:
                raise InvalidJSONError(
                    f"bad call line {line!r}: {error}",
                    location=Location(section=self.name),
                    model_message=f"Write each call as: CALL tool {{json}} ({error}).",
                ) from None
            calls.append(ToolCall(match.group(1), args, f"call_{len(calls)}"))
        return calls

    def format_calls(self, calls: Sequence[ToolCall]) -> str:
        return "\n".join(
            f"CALL {call.tool} {json.dumps(call.args, allow_nan=False)}" for call in calls
        )

    def grammar_calls(self, builder: GrammarBuilder) -> str | None:
        converter = JSONSchemaConverter(builder, prefix="acme", line_breaks=False)
        lines = []
        for tool in self.tools:
            args = converter.convert(arguments_schema(tool), f"{tool.name}-args")
            lines.append(builder.add(f"{tool.name}-line", f'"CALL {tool.name} " {args}'))
        return repeat_calls(builder.add("acme-call", " | ".join(lines)), '"\\n"')


class FreeAcmeChain(AcmeChain):
    """The same calls, without a grammar: the action section is unconstrained."""

    def grammar_calls(self, builder: GrammarBuilder) -> str | None:
        return None


@hookimpl
def gent_register_formats() -> Mapping[str, Callable[..., TextFormat]]:
    return {"brackets": BracketFormat}


@hookimpl
def gent_register_toolchains() -> Mapping[str, Callable[..., ToolChain]]:
    return {"acme": AcmeChain, "acme-free": FreeAcmeChain}
'''
