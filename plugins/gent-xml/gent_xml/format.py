"""The ``xml`` text format: sections written as ``<name>...</name>`` tags.

This is not an XML parser. It finds the registered sections in messy model output and treats
everything else as text. The rules, which the one-shot :meth:`XMLFormat.parse` and the
streaming :meth:`XMLFormat.incremental_parser` share (they are the same state machine):

Opening a section
    Outside every section, ``<name>`` opens section *name* when *name* is a registered section
    (compared case-insensitively; the result uses the registered spelling). The tag may carry
    attributes, ``<tool_call name="x" mode='fast' retries=3>`` (double-quoted, single-quoted
    or unquoted values, character references such as ``&amp;`` decoded), exposed as
    :attr:`~gent_core.sections.ParsedSection.attributes`. ``<name/>`` is an empty section.
    A tag ends at the first ``>``, holds no ``<`` and is at most :data:`MAX_TAG_LENGTH`
    characters long; anything else (``a < b``, ``<br>``, ``<<``, unknown tags, malformed
    attributes) is text.

Inside a section
    Only the section's own closing tag ``</name>`` (case-insensitive, spaces allowed before
    ``>``) ends it: the *first* one after the opening tag. Every other tag, recognised or not,
    is content — as long as the section is closed at all (see *Sections never closed*). So
    prose that mentions ``<answer>`` inside ``<thinking>`` does not start an answer:
    ``<thinking>I will write <answer> tags later</thinking><answer>42</answer>`` gives
    ``thinking`` then ``answer`` = ``42``. Recognised sections never nest; a document of
    nested sections is parsed one level at a time (parse the parent, then its content).
    The flip side: a tag *mentioned* outside every section (``I will use <answer> tags.``)
    cannot be told from a real one and opens the section; a streaming parser cannot take
    text it already reported back. Strict mode reports that case (the real ``<answer>``
    then appears inside the open answer).

Escaping (CDATA)
    When a section's content, after leading whitespace, is one or more adjacent
    ``<![CDATA[...]]>`` blocks, the text inside the blocks is opaque to the scanner (a
    ``</name>`` in it does not close the section) and the content is the blocks' inner text.
    :meth:`XMLFormat.format_section` uses this only when it must: when the content contains
    ``</name`` (any case) or itself starts with ``<![CDATA[`` (in strict mode, also when it
    contains anything tag-like, which strict parsing would refuse); ``]]>`` inside is written as
    ``]]]]><![CDATA[>``. Otherwise content is written as is: no entity escaping, ever.

Sections never closed (what instruct models write)
    A section whose closing tag never comes ends where the first opening tag (or ``<name/>``)
    of *another* registered section inside it starts: ``<thinking> I call it. <action>{...}``
    is a thinking, then an action. The text from that tag on is read again as the rest of the
    output, by the plain rules (once: the tolerance does not apply again), so every character
    is scanned at most twice; a section that reading leaves open ends with the output,
    complete (while the output streamed, the agent saw only the first section open, so it
    could not restore the closing tag a stop sequence took). A call cut inside is the tool
    chain's error, and an output the back end cut off is never used by the agent.
    While streaming, text after such a tag is held back (no event) until the section's own
    closing tag releases it as the section's text, or :meth:`~XMLScanner.close` decides.

Trimming, outside text, truncation
    Content is trimmed (``str.strip``). Text outside recognised sections is ignored but kept,
    trimmed and joined with newlines, in :attr:`~gent_core.sections.ParseResult.outside`.
    Otherwise, a section still open at the end of the output (the model was cut off, or a
    stop sequence took its closing tag: the agent restores it) is returned with
    ``complete=False`` (and :attr:`~gent_core.sections.ParseResult.truncated` points at it).

Strict mode
    ``XMLFormat(strict=True)`` raises :class:`~gent_core.errors.AmbiguousSectionError`
    instead of guessing when a recognised tag (opening or closing, other than the section's
    own closing tag) appears inside an open section, and when a recognised closing tag
    closes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from gent_core.errors import NoSectionsFoundError
from gent_core.formats import TextFormat, guidance_list
from gent_core.sections import FormattedSection, ParseResult, Section, section_names
from gent_core.textscan import format_attributes
from gent_core.toolchain import has_toolchain
from gent_xml.scanner import CDATA_CLOSE, CDATA_OPEN, MAX_TAG_LENGTH, XMLScanner

if TYPE_CHECKING:
    from gent_core.grammar import GrammarBuilder

__all__ = ["MAX_TAG_LENGTH", "XMLFormat"]

_TAG_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]*")
_TAG_LIKE = re.compile(r"<[/A-Za-z_]")  # what could start a tag the strict scanner refuses


class XMLFormat(TextFormat):
    """Sections as XML-style tags: ``<thinking>...</thinking>``.

    See the module documentation for the exact parsing, escaping and truncation rules.

    Args:
        strict: Raise :class:`~gent_core.errors.AmbiguousSectionError` on recognised tags
            inside a section (and stray closing tags) instead of treating them as text.
        observation_name: The section that wraps tool results (``"observation"``).
    """

    name = "xml"

    def __init__(self, *, strict: bool = False, observation_name: str = "observation") -> None:
        self.strict = strict
        self.observation_name = observation_name

    # ------------------------------------------------------------------ parsing

    def parse(self, text: str, sections: Sequence[Section | str]) -> ParseResult:
        """Split ``text`` into the registered ``sections``.

        Returns:
            The sections in order; a last section that was never closed has
            ``complete=False`` (except after a section ended by another one's tag).

        Raises:
            NoSectionsFoundError: When none of ``sections`` appears in ``text``.
            AmbiguousSectionError: In strict mode, on an ambiguous tag.
        """
        parser = self.incremental_parser(sections)
        parser.feed(text)
        parser.close()
        return parser.result()

    def incremental_parser(self, sections: Sequence[Section | str]) -> XMLScanner:
        """Return a fresh streaming parser for ``sections`` (same rules as :meth:`parse`)."""
        names = section_names(sections)

        def no_sections() -> NoSectionsFoundError:
            return NoSectionsFoundError(
                names, format_name=self.name, example=self.example(sections)
            )

        return XMLScanner(_name_table(sections), strict=self.strict, no_sections=no_sections)

    # ------------------------------------------------------------------ describing

    def describe(self, sections: Sequence[Section]) -> str:
        """Return prompt text explaining the tags and each section's guidance."""
        names = section_names(sections)
        tags = ", ".join(f"<{name}>" for name in names)
        skeleton = "\n".join(f"<{name}>\n...\n</{name}>" for name in names)
        lines = [
            "Write your response in sections. Start each section with its opening tag and end "
            "it with the matching closing tag, each tag on a line of its own:",
            "",
            skeleton,
            "",
            "What goes in each section:",
            "",
        ]
        lines.extend(guidance_list(sections, lambda name: f"<{name}>"))
        lines += [
            "",
            "Rules:",
            f"- Only these tags start a section: {tags}. Close every section you open.",
            "- Inside a section, everything up to its closing tag is kept as you wrote it, "
            "including other tags.",
            "- Write only the sections this step needs, in the order shown. Text outside the "
            "sections is ignored.",
        ]
        if has_toolchain(sections):
            lines.append(
                f"- Never write an <{self.observation_name}> section yourself: tool results "
                f"come back to you in one."
            )
        return "\n".join(lines)

    def stop_sequences(self, sections: Sequence[str]) -> list[str]:
        """Return the closing tags of ``sections`` (``["</action>"]``).

        Generation then stops right after the model closes one of them, before it can write
        an observation of its own; the agent restores the dropped closing tag.
        """
        return [f"</{name}>" for name in sections]

    # ------------------------------------------------------------------ formatting

    def format_section(
        self, name: str, content: str, *, attributes: Mapping[str, str] | None = None
    ) -> str:
        """Write one section: ``<name attr="v">``, the content, ``</name>``.

        The content is wrapped in ``<![CDATA[...]]>`` only when it contains ``</name`` or
        starts with ``<![CDATA[`` (in strict mode also when it contains anything tag-like,
        ``<`` then a letter, ``_`` or ``/``), so :meth:`parse` always gives it back (trimmed).

        Raises:
            ValueError: When ``name`` or an attribute key cannot be written as a tag.
        """
        if not _TAG_NAME.fullmatch(name):
            raise ValueError(
                f"{name!r} cannot be written as an XML tag name (ASCII letters, digits, "
                "_ . : -, starting with a letter or _)"
            )
        written = format_attributes(attributes)
        opening = f"<{name} {written}>" if written else f"<{name}>"
        if len(opening) > MAX_TAG_LENGTH:
            raise ValueError(f"the opening tag of {name!r} is longer than {MAX_TAG_LENGTH}")
        if not content.strip():
            return f"{opening}</{name}>"
        if self._needs_cdata(name, content):
            body = content.replace(CDATA_CLOSE, "]]]]><![CDATA[>")
            return f"{opening}{CDATA_OPEN}\n{body}\n{CDATA_CLOSE}</{name}>"
        return f"{opening}\n{content}\n</{name}>"

    def _needs_cdata(self, name: str, content: str) -> bool:
        """Whether ``content`` must be wrapped in CDATA to read back as written: it holds
        ``</name`` or starts with ``<![CDATA[``; in strict mode also when it holds anything
        tag-like, since a recognised tag inside a section is an error there.
        """
        if f"</{name.lower()}" in content.lower() or content.lstrip().startswith(CDATA_OPEN):
            return True
        return self.strict and _TAG_LIKE.search(content) is not None

    def format_sections(self, sections: Sequence[FormattedSection]) -> str:
        """Write several sections one after the other; children are nested inside their
        parent's tags, after the parent's own content.
        """
        return "\n".join(self._format(section) for section in sections)

    def _format(self, section: FormattedSection) -> str:
        content = section.content
        if section.children:
            children = self.format_sections(section.children)
            content = f"{content}\n{children}" if content.strip() else children
        return self.format_section(section.name, content, attributes=section.attributes)

    # ------------------------------------------------------------------ grammar

    def grammar_text(self, builder: GrammarBuilder) -> str:
        """Free text that can neither open nor close a section (see
        :func:`gent_xml.grammar.xml_text`).
        """
        from gent_xml.grammar import xml_text

        return xml_text(builder)


def _name_table(sections: Sequence[Section | str]) -> dict[str, str]:
    """Map each lower-cased section name to its registered name (the first one wins)."""
    table: dict[str, str] = {}
    for name in section_names(sections):
        table.setdefault(name.lower(), name)
    return table
