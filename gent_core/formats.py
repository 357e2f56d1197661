"""The :class:`TextFormat` contract: how sections are written in text, both ways.

A format parses model output into sections (one-shot with :meth:`TextFormat.parse`, or while
it streams with :meth:`TextFormat.incremental_parser`), describes the expected structure for
the prompt, and formats sections back into text (tool results, observations).

Formats are supplied by plugins through the ``gent_register_formats`` hook; ``gent-xml`` and
``gent-markdown`` are the reference implementations.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from gent_core.sections import FormattedSection, ParseResult, Section, SectionEvent

if TYPE_CHECKING:
    from gent_core._grammar.builder import GrammarBuilder

__all__ = ["IncrementalParser", "TextFormat", "guidance_list"]


def guidance_list(sections: Sequence[Section], label: Callable[[str], str]) -> list[str]:
    """Prompt lines giving each section's guidance, for :meth:`TextFormat.describe`.

    One bullet per section, ``- <label>: <first line>``, with further lines indented under
    it; a section without guidance gets "Free text.".

    Args:
        sections: The sections, in prompt order.
        label: How the format names a section in prose (``"<action>"``, ``"action"``).
    """
    lines: list[str] = []
    for section in sections:
        first, *rest = (section.guidance.strip() or "Free text.").splitlines()
        lines.append(f"- {label(section.name)}: {first}")
        lines.extend(f"  {line}" if line.strip() else "" for line in rest)
    return lines


class IncrementalParser(ABC):
    """Parses an output chunk by chunk and reports section events as soon as they are certain.

    Implementations must do work linear in the total length of the output: no re-scanning of
    the accumulated text per chunk. After :meth:`close`, :meth:`result` equals what
    :meth:`TextFormat.parse` returns for the concatenated chunks.
    """

    @abstractmethod
    def feed(self, chunk: str) -> list[SectionEvent]:
        """Consume ``chunk`` and return the events it made certain, in order."""

    @abstractmethod
    def close(self) -> list[SectionEvent]:
        """Finish the output: flush pending text and end (as truncated) any open section."""

    @abstractmethod
    def result(self) -> ParseResult:
        """Return the parse of everything fed so far.

        Raises:
            NoSectionsFoundError: When no recognised section was found.
        """


class TextFormat(ABC):
    """How sections are delimited in text: parsing, describing and formatting them.

    Attributes:
        name: The component name under which the format is registered (``"xml"``).
        observation_name: The section name wrapping tool results in an observation.
    """

    name: ClassVar[str]
    observation_name: str = "observation"

    @abstractmethod
    def describe(self, sections: Sequence[Section]) -> str:
        """Return prompt text explaining the output structure and each section's guidance."""

    @abstractmethod
    def parse(self, text: str, sections: Sequence[Section | str]) -> ParseResult:
        """Split ``text`` into the registered ``sections`` (matched case-insensitively).

        Args:
            text: The model's output.
            sections: The registered sections (or their names); other names are content.

        Returns:
            The sections found, in order, named with their registered names.

        Raises:
            NoSectionsFoundError: When none of ``sections`` appears in ``text``.
        """

    @abstractmethod
    def incremental_parser(self, sections: Sequence[Section | str]) -> IncrementalParser:
        """Return a fresh streaming parser for ``sections``."""

    @abstractmethod
    def format_section(
        self, name: str, content: str, *, attributes: Mapping[str, str] | None = None
    ) -> str:
        """Write one section so that :meth:`parse` gives ``content`` back unchanged."""

    @abstractmethod
    def format_sections(self, sections: Sequence[FormattedSection]) -> str:
        """Write several sections, nesting each one's children inside it."""

    def format_observation(self, sections: Sequence[FormattedSection]) -> str:
        """Wrap tool-result sections in the observation section.

        Returns an empty string when ``sections`` is empty (never an empty wrapper).
        """
        if not sections:
            return ""
        return self.format_sections([FormattedSection(self.observation_name, children=sections)])

    @abstractmethod
    def stop_sequences(self, sections: Sequence[str]) -> list[str]:
        """Return stop sequences that end generation right after one of ``sections`` closes.

        The agent uses them so the model never writes its own observation. A back end that
        stops on one of them drops it from the output; the agent restores it.
        """

    def closing_delimiter(self, name: str) -> str | None:
        """The text that closes section ``name`` (``"</action>"``), or ``None`` when sections
        end implicitly (Markdown headers).

        The agent appends it when a back end stopped on it and dropped it. The default derives
        it from :meth:`format_section`: whatever the format writes after the content.
        """
        marker = "\x00gent-content\x00"
        written = self.format_section(name, marker)
        end = written.find(marker)
        if end < 0:
            return None
        suffix = written[end + len(marker) :].strip()
        return suffix or None

    def restore_after_stop(self, name: str) -> str | None:
        r"""The text the agent appends when a back end stopped on one of
        :meth:`stop_sequences` while section ``name`` was open (back ends drop the stop
        sequence), or ``None`` for nothing.

        The default is :meth:`closing_delimiter`: the stop sequence was the section's closing
        delimiter. A format whose stop sequence starts with text that belongs to the section
        returns that text (Markdown's ``"\n# observation"`` starts with the line end of the
        section's last line, which a YAML block scalar needs).
        """
        return self.closing_delimiter(name)

    def example(self, sections: Sequence[Section | str]) -> str:
        """Return a tiny example of the structure: every section with ``...`` as its content.

        Used in error messages for the model; the conformance kit checks that :meth:`parse`
        reads it back and that the format's grammar accepts it.
        """
        from gent_core.sections import section_names

        return self.format_sections(
            [FormattedSection(name, "...") for name in section_names(sections)]
        )

    # ------------------------------------------------------------------ grammar

    def grammar_section(self, builder: GrammarBuilder, name: str, body: str) -> str | None:
        """Return the GBNF expression of section ``name`` whose content matches rule ``body``.

        Used by back ends that constrain output with a grammar (``gent_core._grammar``). The
        default derives the delimiters from :meth:`format_section` (the literal text it writes
        before and after the content), which suits any format with literal delimiters.

        Args:
            builder: Where helper rules may be added.
            name: The section name.
            body: The name of the rule the section's content must match.

        Returns:
            The expression, or ``None`` when the format cannot say (no grammar can then be
            built for the agent, and generation runs unconstrained).

        Raises:
            GrammarUnsupportedError: When the format does not write content verbatim.
        """
        from gent_core._grammar.sections import delimited_section

        return delimited_section(self, name, body)

    def grammar_text(self, builder: GrammarBuilder) -> str | None:
        """Return the GBNF expression of free text inside a section: text that can neither open
        nor close a section, with at least one visible character (thinking, a plain answer).

        The default ``None`` leaves free text to a conservative rule derived from the
        delimiters :meth:`format_section` writes (no two-character start of any delimiter,
        case-insensitively); ``gent describe`` reports it.
        """
        return None

    def grammar_avoid(self, names: Sequence[str]) -> tuple[str, ...]:
        """Texts that quoted values inside sections ``names`` (tool arguments, JSON answers)
        must never contain, because this format would read them as a delimiter.

        Grammars keep strings free of them, compared case-insensitively (see
        :attr:`GrammarBuilder.avoid <gent_core._grammar.GrammarBuilder>`). The default is each
        section's :meth:`closing_delimiter` (``"</action>"``); formats whose sections end
        implicitly (Markdown headers) avoid nothing, as quoted values hold no line breaks.
        """
        closing = (self.closing_delimiter(name) for name in names)
        return tuple(dict.fromkeys(text for text in closing if text))
