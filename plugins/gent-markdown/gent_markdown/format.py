r"""The ``markdown`` text format: sections started by ``# Name`` header lines.

The rules, which the one-shot :meth:`MarkdownFormat.parse` and the streaming
:meth:`MarkdownFormat.incremental_parser` share (they are the same state machine):

Headers
    A line ``# name`` starts section *name* when *name* is a registered section (compared
    case-insensitively; the result uses the registered spelling). The ``#`` must be the
    first character of the line and be followed by at least one space or tab; more spaces,
    trailing spaces and a trailing ``:`` are accepted (``#   Answer :``). An attribute block
    may follow the name: ``# read_file {path="a.txt" mode=fast}``, exposed as
    :attr:`~gent_core.sections.ParsedSection.attributes`. A header line is at most
    :data:`~gent_markdown.lines.MAX_LINE_LENGTH` characters. ``##`` and deeper headers, and
    ``#`` lines naming no registered section, are content. A section runs until the next
    recognised header (or the end of the output); text before the first one is ignored but
    kept in :attr:`~gent_core.sections.ParseResult.outside`.

The observation header
    ``# observation`` (the format's :attr:`observation_name`) always ends the open section,
    even when it is not registered: its text then goes to ``outside``. So an output that runs
    on into an observation of the model's own making never corrupts the action before it,
    and restoring the ``"\n# observation"`` stop sequence is harmless.

Code fences
    Inside a fenced code block no line is a header. Fences follow CommonMark: up to three
    spaces, then at least three backticks or tildes (a backtick fence's info string may not
    contain a backtick); the block ends at a line of up to three spaces, at least as many of
    the *same* character, and nothing else. An output that ends inside an open fence is
    **truncated**: its last section has ``complete=False``. Otherwise the last section is
    complete (Markdown has no closing delimiter).

Fences never closed, the end of the output (what instruct models write)
    A section whose code fence never closes ends at the first recognised header line inside
    that fence, and the text from that line on is read again as the rest of the output, by
    the plain rules (once), so every character is scanned at most twice; a section that
    reading leaves open ends with the output, complete (an open fence included). While
    streaming, text from such a header on is held back (no event) until the fence closes
    (then it is the section's text) or the output ends.

Escaping (the verbatim block)
    :meth:`MarkdownFormat.format_section` writes content as is unless one of its lines could
    read as a delimiter (a line starting with ``#``... and a space, or a code fence); then it
    wraps the content in a backtick fence longer than any backtick run inside it, with the
    info string ``verbatim``. A section whose whole content is one such ``verbatim`` block is
    given back unwrapped. Content is always trimmed.

Nesting
    :meth:`MarkdownFormat.format_sections` writes children one level deeper (``##``,
    ``###``...). A format made with ``level=2`` reads them back from the parent's content.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from gent_core.errors import NoSectionsFoundError
from gent_core.formats import TextFormat, guidance_list
from gent_core.sections import FormattedSection, ParseResult, Section, section_names
from gent_core.textscan import format_attributes
from gent_core.toolchain import has_toolchain
from gent_markdown.lines import MAX_LINE_LENGTH, needs_verbatim, verbatim_block
from gent_markdown.scanner import MarkdownScanner

if TYPE_CHECKING:
    from gent_core.grammar import GrammarBuilder

__all__ = ["MarkdownFormat"]


def _check_name(name: str) -> None:
    if (
        not name
        or name != name.strip()
        or name.startswith("#")
        or name.endswith(":")
        or any(char in name for char in "{}\n\r")
    ):
        raise ValueError(
            f"{name!r} cannot be written as a Markdown section header (it must be non-empty, "
            "on one line, without surrounding spaces, braces, a leading # or a trailing :)"
        )


class MarkdownFormat(TextFormat):
    """Sections as Markdown headers: ``# Thinking``, ``# Action``, ``# Answer``.

    See the module documentation for the exact parsing, escaping and truncation rules.

    Args:
        level: Header level of the sections (``1``: ``#``). Use ``level=2`` to read the
            children of a section written by :meth:`format_sections`.
        observation_name: The section that wraps tool results (``"observation"``).

    Raises:
        ValueError: When ``level`` is less than 1.
    """

    name = "markdown"

    def __init__(self, *, level: int = 1, observation_name: str = "observation") -> None:
        if level < 1:
            raise ValueError(f"level must be at least 1, got {level}")
        self.level = level
        self.observation_name = observation_name

    # ------------------------------------------------------------------ parsing

    def parse(self, text: str, sections: Sequence[Section | str]) -> ParseResult:
        """Split ``text`` into the registered ``sections``.

        Returns:
            The sections in order; the last one has ``complete=False`` when the output ends
            inside an open code fence (except after a section ended by a header in a fence
            never closed).

        Raises:
            NoSectionsFoundError: When none of ``sections`` appears in ``text``.
        """
        parser = self.incremental_parser(sections)
        parser.feed(text)
        parser.close()
        return parser.result()

    def incremental_parser(self, sections: Sequence[Section | str]) -> MarkdownScanner:
        """Return a fresh streaming parser for ``sections`` (same rules as :meth:`parse`)."""
        names = section_names(sections)
        table: dict[str, str | None] = {}
        for name in names:
            table.setdefault(name.lower(), name)
        table.setdefault(self.observation_name.lower(), None)

        def no_sections() -> NoSectionsFoundError:
            return NoSectionsFoundError(
                names, format_name=self.name, example=self.example(sections)
            )

        return MarkdownScanner(table, level=self.level, no_sections=no_sections)

    # ------------------------------------------------------------------ describing

    def describe(self, sections: Sequence[Section]) -> str:
        """Return prompt text explaining the headers and each section's guidance."""
        hashes = "#" * self.level
        names = section_names(sections)
        headers = ", ".join(f"`{hashes} {name}`" for name in names)
        skeleton = "\n".join(f"{hashes} {name}\n..." for name in names)
        lines = [
            f"Write your response in sections. Start each section with a header line: "
            f"`{hashes}`, a space and the section name, alone on its line. A section runs "
            "until the next section header:",
            "",
            skeleton,
            "",
            "What goes in each section:",
            "",
        ]
        lines.extend(guidance_list(sections, str))
        lines += [
            "",
            "Rules:",
            f"- Only these headers start a section: {headers}. Use `{hashes}#` or deeper for "
            "headings inside a section.",
            "- Lines inside a fenced code block (```) never start a section; close every code "
            "block you open.",
            "- Write only the sections this step needs, in the order shown. Text before the "
            "first section header is ignored.",
        ]
        if has_toolchain(sections):
            lines.append(
                f"- Never write `{hashes} {self.observation_name}` yourself: tool results come "
                "back to you under that header."
            )
        return "\n".join(lines)

    def stop_sequences(self, sections: Sequence[str]) -> list[str]:
        r"""Return the observation header, which stops the model before it writes one.

        Markdown sections have no closing delimiter, so ``sections`` is not used: generation
        stops at ``"\n# observation"`` (also in the capitalised spelling). Restoring it is
        harmless: the observation header always ends the open section (see the module
        documentation).
        """
        hashes = "#" * self.level
        name = self.observation_name
        stops = [f"\n{hashes} {name}", f"\n{hashes} {name[:1].upper()}{name[1:]}"]
        return list(dict.fromkeys(stops))

    def restore_after_stop(self, name: str) -> str:
        r"""The line end that the stop sequence (``"\n# observation"``) took from the
        section's last line: a section's text keeps it (a YAML block scalar needs it).
        """
        return "\n"

    # ------------------------------------------------------------------ formatting

    def format_section(
        self, name: str, content: str, *, attributes: Mapping[str, str] | None = None
    ) -> str:
        """Write one section: the header line (with ``{attributes}``), then the content.

        Content with a line that could read as a header or a code fence is written in a
        ``verbatim`` code block, so :meth:`parse` always gives it back (trimmed).

        Raises:
            ValueError: When ``name`` or an attribute key cannot be written in a header.
        """
        return self._format_one(name, content, attributes, self.level)

    def format_sections(self, sections: Sequence[FormattedSection]) -> str:
        """Write several sections separated by blank lines; children follow their parent's
        own content one header level deeper.
        """
        return self._format_many(sections, self.level)

    def _format_many(self, sections: Sequence[FormattedSection], level: int) -> str:
        return "\n\n".join(self._format_tree(section, level) for section in sections)

    def _format_tree(self, section: FormattedSection, level: int) -> str:
        text = self._format_one(section.name, section.content, section.attributes, level)
        if section.children:
            text = f"{text}\n\n{self._format_many(section.children, level + 1)}"
        return text

    @staticmethod
    def _format_one(
        name: str, content: str, attributes: Mapping[str, str] | None, level: int
    ) -> str:
        _check_name(name)
        written = format_attributes(attributes)
        header = f"{'#' * level} {name} {{{written}}}" if written else f"{'#' * level} {name}"
        if len(header) > MAX_LINE_LENGTH:
            raise ValueError(f"the header of {name!r} is longer than {MAX_LINE_LENGTH}")
        if not content.strip():
            return header
        if needs_verbatim(content):
            content = verbatim_block(content)
        return f"{header}\n{content}"

    # ------------------------------------------------------------------ grammar

    def grammar_text(self, builder: GrammarBuilder) -> str:
        """Free text that can neither open nor close a section (see
        :func:`gent_markdown.grammar.markdown_text`).
        """
        from gent_markdown.grammar import markdown_text

        return markdown_text(builder)
