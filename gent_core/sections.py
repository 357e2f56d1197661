"""Sections: the named parts of a model's output (``thinking``, ``action``, ``answer``...).

A :class:`Section` is what an agent *registers*: a name, guidance for the prompt, and a
``parse`` that turns the section's raw text into a value. A :class:`ParsedSection` is what a
:class:`~gent_core.formats.TextFormat` *finds* in an output.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Protocol, runtime_checkable

__all__ = [
    "FormattedSection",
    "ParseResult",
    "ParsedSection",
    "Section",
    "SectionEnded",
    "SectionEvent",
    "SectionStarted",
    "TextDelta",
    "TextSection",
    "section_names",
]

_EMPTY: Mapping[str, str] = MappingProxyType({})


def _empty_attributes() -> Mapping[str, str]:
    return _EMPTY


@runtime_checkable
class Section(Protocol):
    """A named part of the model's output that the agent asks for.

    Tool chains and terminations are sections; so is a plain ``thinking`` section.
    """

    @property
    def name(self) -> str:
        """The section's name as written in the output (``"action"``)."""
        ...

    @property
    def guidance(self) -> str:
        """Prompt text explaining what goes into this section."""
        ...

    def parse(self, content: str) -> object:
        """Turn the section's text into a value (or raise a :class:`GentError`).

        The agent passes the text as written (:attr:`ParsedSection.untrimmed`): whitespace
        around it belongs to the format, so a section trims it unless line ends matter.
        """
        ...


@dataclass(frozen=True)
class TextSection:
    """A section whose value is its text, e.g. ``thinking``.

    Attributes:
        name: The section name.
        guidance: What the model should write in it.
    """

    name: str
    guidance: str = ""

    def parse(self, content: str) -> str:
        """Return ``content`` unchanged."""
        return content


def section_names(sections: Sequence[Section | str]) -> list[str]:
    """Return the names of ``sections``, which may be sections or plain names."""
    return [section if isinstance(section, str) else section.name for section in sections]


@dataclass(frozen=True)
class ParsedSection:
    """One section found in an output.

    Attributes:
        name: The registered name (not the spelling used in the output).
        content: The section's text, trimmed (and unescaped: a format's escaping such as
            XML CDATA is undone).
        attributes: Attributes written on the opening tag (``<tool_call name="x">``).
        start: Offset of the section's opening delimiter in the output.
        end: Offset just past the section's closing delimiter (or the end of the output).
        complete: ``False`` when the section was never closed (the output was cut off).
        raw: The section's text unescaped but *not* trimmed: everything between its
            delimiters, line ends included; ``None`` when the format did not record it.
            Tool chains and terminations parse this text (see :attr:`untrimmed`), so a
            syntax where the final line end matters (a YAML block scalar, ``content: |``)
            keeps it.
    """

    name: str
    content: str
    attributes: Mapping[str, str] = field(default_factory=_empty_attributes)
    start: int = 0
    end: int = 0
    complete: bool = True
    raw: str | None = None

    @property
    def untrimmed(self) -> str:
        """The text a section's ``parse`` gets: :attr:`raw`, or :attr:`content` when the
        format did not record the raw text.
        """
        return self.raw if self.raw is not None else self.content


@dataclass(frozen=True)
class ParseResult:
    """Everything a format found in one output.

    Attributes:
        sections: The sections in the order they appear.
        outside: Text outside every recognised section (a preamble, chatter), joined with
            newlines and trimmed; kept so an agent may log it.
    """

    sections: tuple[ParsedSection, ...]
    outside: str = ""

    @property
    def truncated(self) -> ParsedSection | None:
        """The last section when it was never closed, else ``None``."""
        if self.sections and not self.sections[-1].complete:
            return self.sections[-1]
        return None

    def get(self, name: str) -> list[str]:
        """Return the contents of every instance of section ``name``, in order."""
        return [section.content for section in self.sections if section.name == name]

    def untrimmed(self, name: str) -> list[str]:
        """Return the text as written (:attr:`ParsedSection.untrimmed`) of every instance of
        section ``name``, in order: what the section's ``parse`` gets.
        """
        return [section.untrimmed for section in self.sections if section.name == name]

    def first(self, name: str) -> ParsedSection | None:
        """Return the first instance of section ``name``, or ``None``."""
        return next((section for section in self.sections if section.name == name), None)

    def as_dict(self) -> dict[str, list[str]]:
        """Return ``{name: [content, ...]}`` in order of first appearance."""
        found: dict[str, list[str]] = {}
        for section in self.sections:
            found.setdefault(section.name, []).append(section.content)
        return found

    def __iter__(self) -> Iterator[ParsedSection]:
        return iter(self.sections)

    def __contains__(self, name: object) -> bool:
        return any(section.name == name for section in self.sections)

    def __len__(self) -> int:
        return len(self.sections)


@dataclass(frozen=True)
class FormattedSection:
    """A section to write (an observation, a tool result), possibly with nested children.

    Attributes:
        name: The section name.
        content: The text of the section (written before its children).
        children: Nested sections (XML nests tags, Markdown raises the header level).
        attributes: Attributes for formats that support them (XML tags).
    """

    name: str
    content: str = ""
    children: Sequence[FormattedSection] = ()
    attributes: Mapping[str, str] = field(default_factory=_empty_attributes)


# --------------------------------------------------------------------------- streaming events


@dataclass(frozen=True)
class SectionStarted:
    """A recognised section opened.

    Attributes:
        name: The registered section name.
        attributes: The opening tag's attributes.
    """

    name: str
    attributes: Mapping[str, str] = field(default_factory=_empty_attributes)


@dataclass(frozen=True)
class TextDelta:
    """Raw text that is now certain. ``section`` is ``None`` for text outside every section."""

    section: str | None
    text: str


@dataclass(frozen=True)
class SectionEnded:
    """A section closed (or was cut off when ``complete`` is false).

    Attributes:
        section: The parsed section, with its trimmed content.
    """

    section: ParsedSection

    @property
    def name(self) -> str:
        """The section's registered name."""
        return self.section.name

    @property
    def complete(self) -> bool:
        """Whether the section was properly closed."""
        return self.section.complete


SectionEvent = SectionStarted | TextDelta | SectionEnded
"""What an incremental parser emits: a section opened, text inside it, a section closed."""
