r"""The ``template`` text format: sections fenced by lines of colons.

::

    ::: thinking
    I need the calculator.
    ::: /thinking
    ::: action
    {"tool": "calculator", "args": {"expression": "6 * 7"}}
    ::: /action

The rules, shared by the one-shot :meth:`TemplateFormat.parse` and the streaming parser
(they are the same line-by-line state machine, so they always agree, and each line is read
once, so the work is linear):

* Outside a section, a line of three or more colons, a space and a registered section name
  (any case) opens that section, optionally with attributes: ``::: tool {name="x"}``. Other
  lines are kept in ``ParseResult.outside``.
* The section runs until the line of the *same* colons, a space, ``/`` and its name
  (``::: /answer``). Every other line is content: sections do not nest while parsing, so an
  observation's tool sections are part of its content.
* ``format_section`` writes a fence longer than any run of colons starting a content line,
  so every content comes back (trimmed).
* An output that ends inside a section leaves it cut off (``complete=False``).

Replace this example with your own format.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from gent_core import hookimpl
from gent_core.errors import NoSectionsFoundError
from gent_core.formats import IncrementalParser, TextFormat, guidance_list
from gent_core.sections import (
    FormattedSection,
    ParseResult,
    Section,
    SectionEvent,
    section_names,
)
from gent_core.textscan import (
    EMPTY_ATTRIBUTES,
    SectionCollector,
    format_attributes,
    parse_attributes,
)

__all__ = ["TemplateFormat", "gent_register_formats"]

_MIN_FENCE = 3


def _fence_length(line: str) -> int:
    """The number of colons a line starts with."""
    return len(line) - len(line.lstrip(":"))


class _FenceParser(IncrementalParser):
    """The state machine: reads complete lines, keeps only the current partial line."""

    def __init__(self, names: Mapping[str, str], no_sections: Callable[[], Exception]) -> None:
        self._names = names  # lower-cased name -> registered spelling
        self._no_sections = no_sections
        self._collector = SectionCollector()
        self._partial: list[str] = []
        self._offset = 0
        self._closing: str | None = None  # the closing line of the open section, lower-cased
        self._first_line = False

    def feed(self, chunk: str) -> list[SectionEvent]:
        """Consume ``chunk``; every line it completes is read now."""
        events: list[SectionEvent] = []
        start = 0
        while (newline := chunk.find("\n", start)) >= 0:
            self._partial.append(chunk[start:newline])
            line, self._partial = "".join(self._partial), []
            self._line(events, line, ended=True)
            start = newline + 1
        if start < len(chunk):
            self._partial.append(chunk[start:])
        return events

    def close(self) -> list[SectionEvent]:
        """Read the last line (it has no line end) and cut off a section still open."""
        events: list[SectionEvent] = []
        line, self._partial = "".join(self._partial), []
        if line:
            self._line(events, line, ended=False)
        if self._closing is not None:
            self._collector.close(events, self._offset, complete=False)
            self._closing = None
        return events

    def result(self) -> ParseResult:
        """The sections read so far (a section still open is reported cut off)."""
        result = self._collector.result(self._offset)
        if not result.sections:
            raise self._no_sections()
        return result

    def _opening(self, line: str) -> tuple[int, str, Mapping[str, str]] | None:
        fence = _fence_length(line)
        rest = line[fence:]
        if fence < _MIN_FENCE or rest[:1] not in (" ", "\t"):
            return None
        rest = rest.strip(" \t\r")
        attributes: Mapping[str, str] | None = EMPTY_ATTRIBUTES
        if rest.endswith("}") and " {" in rest:
            rest, _, written = rest[:-1].rpartition(" {")
            attributes = parse_attributes(written)
            rest = rest.rstrip(" \t")
        name = self._names.get(rest.lower())
        if name is None or attributes is None:
            return None
        return fence, name, attributes

    def _line(self, events: list[SectionEvent], line: str, *, ended: bool) -> None:
        start = self._offset
        self._offset += len(line) + ended
        collector = self._collector
        if self._closing is None:
            opened = self._opening(line)
            if opened is None:
                collector.text(events, line + "\n" * ended)
                return
            fence, name, attributes = opened
            collector.open(events, name, attributes, start)
            self._closing = f"{':' * fence} /{name.lower()}"
            self._first_line = True
        elif line.rstrip(" \t\r").lower() == self._closing:
            collector.close(events, start + len(line), complete=True)
            self._closing = None
        else:
            collector.text(events, line if self._first_line else "\n" + line)
            self._first_line = False


class TemplateFormat(TextFormat):
    """Sections fenced by lines of colons: ``::: answer`` ... ``::: /answer``.

    Args:
        observation_name: The section that wraps tool results.
    """

    name = "template"

    def __init__(self, *, observation_name: str = "observation") -> None:
        self.observation_name = observation_name

    # ------------------------------------------------------------------ parsing

    def parse(self, text: str, sections: Sequence[Section | str]) -> ParseResult:
        """Split ``text`` into the registered ``sections`` (see the module documentation).

        Raises:
            NoSectionsFoundError: When none of ``sections`` appears in ``text``.
        """
        parser = self.incremental_parser(sections)
        parser.feed(text)
        parser.close()
        return parser.result()

    def incremental_parser(self, sections: Sequence[Section | str]) -> IncrementalParser:
        """A fresh streaming parser for ``sections`` (the same rules as :meth:`parse`)."""
        names = section_names(sections)
        table: dict[str, str] = {}
        for name in names:
            table.setdefault(name.lower(), name)

        def no_sections() -> NoSectionsFoundError:
            return NoSectionsFoundError(
                names, format_name=self.name, example=self.example(sections)
            )

        return _FenceParser(table, no_sections)

    # ------------------------------------------------------------------ describing

    def describe(self, sections: Sequence[Section]) -> str:
        """Prompt text: how sections are fenced, then what goes in each one."""
        names = section_names(sections)
        skeleton = "\n".join(f"::: {name}\n...\n::: /{name}" for name in names)
        lines = [
            "Write your response in sections. Open each section with a line of three colons, "
            "a space and the section name; close it with the same colons, a space, / and the "
            "name:",
            "",
            skeleton,
            "",
            "What goes in each section:",
            "",
            *guidance_list(sections, str),
            "",
            "Write only the sections this step needs, in the order shown.",
        ]
        return "\n".join(lines)

    def stop_sequences(self, sections: Sequence[str]) -> list[str]:
        """The closing lines of ``sections`` (also capitalised), so generation stops there."""
        stops = []
        for name in sections:
            stops += [f"::: /{name}", f"::: /{name[:1].upper()}{name[1:]}"]
        return list(dict.fromkeys(stops))

    # ------------------------------------------------------------------ formatting

    def format_section(
        self, name: str, content: str, *, attributes: Mapping[str, str] | None = None
    ) -> str:
        """Write one section, its fence longer than any run of colons starting a line of
        ``content``, so :meth:`parse` gives ``content`` back (trimmed).

        Raises:
            ValueError: When ``name`` cannot be written on the opening line.
        """
        if not name or name != name.strip() or any(char in name for char in "\n\r{}/"):
            raise ValueError(f"{name!r} cannot be a section name of the {self.name} format")
        longest = max((_fence_length(line) for line in content.split("\n")), default=0)
        fence = ":" * max(_MIN_FENCE, longest + 1)
        written = format_attributes(attributes)
        opening = f"{fence} {name} {{{written}}}" if written else f"{fence} {name}"
        return f"{opening}\n{content}\n{fence} /{name}"

    def format_sections(self, sections: Sequence[FormattedSection]) -> str:
        """Write several sections, one after the other; children go inside their parent."""
        return "\n".join(self._format_tree(section) for section in sections)

    def _format_tree(self, section: FormattedSection) -> str:
        parts = [section.content] if section.content else []
        if section.children:
            parts.append(self.format_sections(section.children))
        return self.format_section(section.name, "\n".join(parts), attributes=section.attributes)


@hookimpl
def gent_register_formats() -> Mapping[str, Callable[..., TextFormat]]:
    """Supply the ``template`` format."""
    return {"template": TemplateFormat}
