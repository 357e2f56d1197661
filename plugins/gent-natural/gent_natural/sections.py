"""Read tool use written in a gent text format's sections (text -> native with a format).

:class:`SectionScanner` runs the format's own streaming parser over the text and reports the
same events as :class:`~gent_natural.scanner.TagScanner`:

* ``tool_call`` and ``tool_response`` sections (what :class:`~gent_natural.writer.
  FormatWriter` writes) become elements;
* with a tool chain, each action section gives one ``tool_call`` element per call the chain
  reads from it, and each observation section one ``tool_response`` element per tool section
  inside it (a result starting with ``Error:``, the core's
  :data:`~gent_core.guidance.ERROR_PREFIX`, is a failed call's);
* text outside these sections is prose; a section that cannot be read (cut off, or calls the
  chain rejects) stays in the text with its problem reported.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from gent_core import section_name_for
from gent_core.errors import GentError
from gent_core.guidance import ERROR_PREFIX
from gent_core.sections import ParsedSection, SectionEnded, SectionEvent, TextDelta
from gent_natural.scanner import BrokenElement, Element, ProseText, ScanEvent
from gent_natural.tags import CALL_TAG, RESPONSE_TAG

if TYPE_CHECKING:
    from gent_core.formats import TextFormat
    from gent_core.toolchain import ToolChain

__all__ = ["SectionScanner"]


class SectionScanner:
    """Finds tool use in the sections of ``text_format`` (see the module docstring).

    Args:
        text_format: The format the text is written in.
        chain: The tool chain whose action sections hold calls, or ``None``.
    """

    def __init__(self, text_format: TextFormat, chain: ToolChain | None = None) -> None:
        self.format = text_format
        self.chain = chain
        names = [CALL_TAG, RESPONSE_TAG]
        if chain is not None:
            names += [chain.name, text_format.observation_name]
        self._parser = text_format.incremental_parser(names)
        self._called: list[str] = []  # section names of the last action's calls

    def feed(self, chunk: str) -> list[ScanEvent]:
        """Scan ``chunk``; return the events it made certain."""
        return self._map(self._parser.feed(chunk))

    def close(self) -> list[ScanEvent]:
        """End the text; a section still open is reported as cut off."""
        return self._map(self._parser.close())

    def _map(self, events: Sequence[SectionEvent]) -> list[ScanEvent]:
        out: list[ScanEvent] = []
        for event in events:
            if isinstance(event, TextDelta) and event.section is None:
                out.append(ProseText(event.text))
            elif isinstance(event, SectionEnded):
                out += self._section(event.section)
        return out

    def _raw(self, section: ParsedSection) -> str:
        try:
            return self.format.format_section(
                section.name, section.content, attributes=section.attributes
            )
        except ValueError:
            return section.content

    def _section(self, section: ParsedSection) -> list[ScanEvent]:
        raw = self._raw(section)
        if not section.complete:
            return [
                BrokenElement(section.name, raw, f"the {section.name} section was cut off", True)
            ]
        if section.name == CALL_TAG:
            return [Element(CALL_TAG, dict(section.attributes), section.content, raw)]
        if section.name == RESPONSE_TAG:
            return [Element(RESPONSE_TAG, dict(section.attributes), section.content, raw)]
        if self.chain is not None and section.name == self.chain.name:
            return self._action(section, raw)
        return self._observation(section, raw)

    def _action(self, section: ParsedSection, raw: str) -> list[ScanEvent]:
        assert self.chain is not None
        try:
            calls = self.chain.parse(section.content)
        except GentError as error:
            return [BrokenElement(section.name, raw, f"the {section.name} section: {error}")]
        self._called = [section_name_for(call.tool) for call in calls]
        return [
            Element(CALL_TAG, {"name": call.tool}, json.dumps(call.args, ensure_ascii=False), raw)
            for call in calls
        ]

    def _observation(self, section: ParsedSection, raw: str) -> list[ScanEvent]:
        names = list(dict.fromkeys(self._called))
        try:
            results = self.format.parse(section.content, names).sections if names else ()
        except GentError:
            results = ()
        if not results:
            problem = f"the {section.name} section holds no result of the calls before it"
            return [BrokenElement(section.name, raw, problem)]
        out: list[ScanEvent] = []
        for result in results:
            attributes = {"name": result.name}
            if result.content.startswith(ERROR_PREFIX):
                attributes["error"] = "true"
            out.append(Element(RESPONSE_TAG, attributes, result.content, raw))
        self._called = []
        return out
