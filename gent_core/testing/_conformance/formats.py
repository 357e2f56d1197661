"""``FormatConformance``: the checks every :class:`~gent_core.formats.TextFormat` must pass."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import hypothesis.strategies as st
import pytest
from hypothesis import given

from gent_core._grammar.check import check_gbnf
from gent_core._grammar.match import GrammarMatcher
from gent_core._grammar.output import agent_grammar
from gent_core._grammar.sections import section_delimiters
from gent_core._terminations.text import TextTermination
from gent_core.errors import NoSectionsFoundError
from gent_core.formats import TextFormat
from gent_core.model import OutputStructure
from gent_core.sections import (
    FormattedSection,
    ParseResult,
    Section,
    SectionEnded,
    SectionStarted,
    TextSection,
)
from gent_core.testing._conformance.settings import kit_settings
from gent_core.testing._conformance.steps import assert_linear

__all__ = ["FormatConformance"]

_SETTINGS = kit_settings()
# Section names include tool names, which may hold dots (an observation's ``math.factorial``).
_NAMES = st.from_regex(r"[a-z][a-z0-9_]{0,11}(\.[a-z_][a-z0-9_]{0,5})?", fullmatch=True)
_PLACEHOLDER = "GENTCONTENT7F3A"


def _outcome(run: Callable[[], ParseResult]) -> ParseResult | type[Exception]:
    try:
        return run()
    except NoSectionsFoundError:
        return NoSectionsFoundError


class FormatConformance:
    """Checks a text format against the :class:`~gent_core.formats.TextFormat` contract.

    Subclass it in a test module (name the subclass ``Test...``) and implement
    :meth:`make_format`; optionally set the class attributes.

    Attributes:
        section_names: The sections most checks register.
        documented_errors: Errors the format documents besides
            :class:`~gent_core.errors.NoSectionsFoundError` (e.g. a strict mode's).
        adversarial_inputs: Extra inputs for the linear-time check: a name and either a unit
            repeated to the input's length or a pair ``(prefix written once, unit)`` (the kit
            adds inputs derived from the format's own delimiters).
        linear_bound: The largest ratio of step counts accepted between an input and one ten
            times larger (about 10 for linear work, 100 for quadratic).
    """

    section_names: ClassVar[tuple[str, ...]] = ("thinking", "action", "answer")
    documented_errors: ClassVar[tuple[type[Exception], ...]] = ()
    adversarial_inputs: ClassVar[Mapping[str, str | tuple[str, str]]] = {}
    linear_bound: ClassVar[float] = 30.0

    def make_format(self) -> TextFormat:
        """Return the format under test (a fresh instance)."""
        raise NotImplementedError("implement make_format() to return the format under test")

    # ------------------------------------------------------------------ helpers

    def _delimiters(self, fmt: TextFormat, names: Sequence[str]) -> list[str]:
        parts: list[str] = []
        for name in names:
            prefix, suffix = section_delimiters(fmt, name)
            parts += [part for part in (prefix, suffix) if part]
        return parts

    def _fragments(self, fmt: TextFormat) -> list[str]:
        """Pieces of text that exercise the format: its delimiters whole, cut and recased."""
        delimiters = self._delimiters(fmt, [*self.section_names, fmt.observation_name, "other"])
        pieces: set[str] = set()
        for delimiter in delimiters:
            pieces |= {delimiter, delimiter.strip(), delimiter.upper(), delimiter.swapcase()}
            pieces |= {delimiter[:cut] for cut in range(1, len(delimiter))}
            pieces |= {delimiter[cut:] for cut in range(1, len(delimiter))}
        pieces |= {" ", "\n", "\t", "\r\n", "x", "text", "```", "<", ">", "#", "/", "]]>"}
        return sorted(pieces)

    def _texts(self, fmt: TextFormat) -> st.SearchStrategy[str]:
        piece = st.sampled_from(self._fragments(fmt)) | st.text(max_size=6)
        return st.lists(piece, max_size=30).map("".join)

    def _sections(self) -> list[Section]:
        return [TextSection(name, f"What goes in {name}.") for name in self.section_names]

    # ------------------------------------------------------------------ round trips

    @_SETTINGS
    @given(data=st.data())
    def test_parse_gives_back_what_format_section_wrote(self, data: st.DataObject) -> None:
        """``parse(format_section(name, content))`` gives ``content`` back (trimmed), complete, for
        any content, the format's own delimiters included.
        """
        fmt = self.make_format()
        name = data.draw(_NAMES, label="name")
        content = data.draw(self._texts(fmt) | st.text(), label="content")
        written = fmt.format_section(name, content)
        if not content.strip():
            with contextlib.suppress(NoSectionsFoundError):
                parsed = fmt.parse(written, [name])
                assert [s.content for s in parsed] in ([], [""]), written
            return
        parsed = fmt.parse(written, [name])
        assert [section.name for section in parsed] == [name], written
        section = parsed.sections[0]
        assert section.content == content.strip(), written
        assert section.complete, written
        assert section.untrimmed.strip() == content.strip(), written

    @_SETTINGS
    @given(data=st.data())
    def test_several_sections_come_back_in_order(self, data: st.DataObject) -> None:
        """``format_sections`` of several sections parses back to the same names and contents, in
        order.
        """
        fmt = self.make_format()
        names = list(self.section_names)
        chosen = data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=5))
        contents = [
            data.draw((self._texts(fmt) | st.text()).filter(str.strip), label=name)
            for name in chosen
        ]
        written = fmt.format_sections(
            [FormattedSection(name, text) for name, text in zip(chosen, contents, strict=True)]
        )
        parsed = fmt.parse(written, names)
        assert [(s.name, s.content) for s in parsed] == [
            (name, text.strip()) for name, text in zip(chosen, contents, strict=True)
        ], written

    def test_names_are_matched_case_insensitively(self) -> None:
        """A section written under another casing of a registered name is read, and named with
        the registered spelling (``parse`` matches names case-insensitively).
        """
        fmt = self.make_format()
        for name in self.section_names:
            written = fmt.format_section(name.swapcase(), "some content")
            parsed = fmt.parse(written, [name])
            assert [section.name for section in parsed] == [name], written
            assert parsed.sections[0].content == "some content", written

    def test_a_repeated_section_comes_back_each_time_in_order(self) -> None:
        """A section written twice, around another, is read twice, in the order written."""
        fmt = self.make_format()
        first, second = self.section_names[0], self.section_names[-1]
        written = fmt.format_sections(
            [
                FormattedSection(first, "one"),
                FormattedSection(second, "between"),
                FormattedSection(first, "two"),
            ]
        )
        parsed = fmt.parse(written, self._sections())
        assert [(s.name, s.content) for s in parsed] == [
            (first, "one"),
            (second, "between"),
            (first, "two"),
        ], written

    def test_text_without_sections_raises_no_sections_found(self) -> None:
        """Text holding none of the sections raises
        :class:`~gent_core.errors.NoSectionsFoundError`, with a message for the model.
        """
        fmt = self.make_format()
        with pytest.raises(NoSectionsFoundError) as caught:
            fmt.parse("Just some words, and no section at all.", self._sections())
        assert caught.value.model_message.strip()

    def test_observation_wraps_results_and_is_empty_without_them(self) -> None:
        """``format_observation`` writes nothing without results, else an observation section that
        parses back.
        """
        fmt = self.make_format()
        assert fmt.format_observation([]) == ""
        written = fmt.format_observation([FormattedSection("calculator", "42")])
        parsed = fmt.parse(written, [fmt.observation_name])
        assert [section.name for section in parsed] == [fmt.observation_name], written
        assert "42" in parsed.sections[0].content
        # a tool name with dots names its result's section as it is
        written = fmt.format_observation([FormattedSection("math.factorial", "120")])
        parsed = fmt.parse(written, [fmt.observation_name])
        assert [section.name for section in parsed] == [fmt.observation_name], written
        inside = parsed.sections[0].content
        assert "math.factorial" in inside and "120" in inside, written

    # ------------------------------------------------------------------ streaming

    @_SETTINGS
    @given(data=st.data())
    def test_streaming_equals_one_shot_parsing_for_any_chunking(self, data: st.DataObject) -> None:
        """The incremental parser, fed the text in any chunks, gives what ``parse`` gives (or the
        same error).
        """
        fmt = self.make_format()
        text = data.draw(self._texts(fmt), label="text")
        sizes = data.draw(st.lists(st.integers(1, 12), max_size=8), label="chunk sizes")
        names = list(self.section_names)
        one_shot = _outcome(lambda: fmt.parse(text, names))
        parser = fmt.incremental_parser(names)
        position = 0
        for size in [*sizes, len(text)]:
            parser.feed(text[position : position + size])
            position += size
        parser.close()
        assert _outcome(parser.result) == one_shot, text

    def test_events_come_as_soon_as_they_are_certain(self) -> None:
        """The streaming parser reports a section once its opening is complete, and its end
        once text after it is written, not only at ``close``: the agent stops generation
        and restores a dropped stop sequence from these events.
        """
        fmt = self.make_format()
        name, other = self.section_names[-1], self.section_names[0]
        content = "the first words and the rest"
        written = fmt.format_section(name, content)
        head = written[: written.index(content)] + "the first words"
        parser = fmt.incremental_parser(list(self.section_names))
        events = parser.feed(head)
        assert any(isinstance(e, SectionStarted) and e.name == name for e in events), (
            f"no SectionStarted({name!r}) after feeding {head!r}: {events}"
        )
        after = "\n" + fmt.format_section(other, "more")
        events = parser.feed(written[len(head) :] + after)
        ended = [e for e in events if isinstance(e, SectionEnded) and e.name == name]
        assert ended and ended[0].complete, f"no SectionEnded after {written + after!r}: {events}"
        assert ended[0].section.content == content

    @_SETTINGS
    @given(data=st.data())
    def test_no_input_raises_anything_but_documented_errors(self, data: st.DataObject) -> None:
        """No input makes parsing (one-shot or streaming) raise anything but the documented
        errors.
        """
        fmt = self.make_format()
        allowed: tuple[type[Exception], ...] = (NoSectionsFoundError, *self.documented_errors)
        chunks = data.draw(st.lists(self._texts(fmt) | st.text(), max_size=5), label="chunks")
        names = list(self.section_names)
        with contextlib.suppress(*allowed):
            fmt.parse("".join(chunks), names)
        parser = fmt.incremental_parser(names)
        with contextlib.suppress(*allowed):
            for chunk in chunks:
                parser.feed(chunk)
            parser.close()
            parser.result()

    # ------------------------------------------------------------------ speed

    def _adversarial(self, fmt: TextFormat) -> dict[str, tuple[str, str]]:
        """Inputs for the linear-time check: ``label -> (prefix written once, unit repeated)``."""
        names = list(self.section_names)
        open_first, close_first = section_delimiters(fmt, names[0])
        _, close_last = section_delimiters(fmt, names[-1])
        inputs = {
            "repeated openings": ("", open_first),
            "cut openings": ("", open_first[:-1] or open_first),
            "openings with text": ("", open_first + "x"),
            "recased openings": ("", open_first.swapcase()),
            "delimiter characters": (
                "",
                "".join(sorted(set("".join(self._delimiters(fmt, names))))),
            ),
        }
        if close_first.strip():
            inputs["cut closings inside a section"] = (open_first, close_first[:-1])
            inputs["other sections' closings inside a section"] = (open_first, close_last)
        for label, extra in self.adversarial_inputs.items():
            inputs[label] = extra if isinstance(extra, tuple) else ("", extra)
        return {label: pair for label, pair in inputs.items() if pair[1].strip()}

    def test_work_grows_linearly_on_adversarial_input(self) -> None:
        """Parsing and streaming ten times more adversarial input takes less than
        ``linear_bound`` times more interpreter steps (counted, not timed).
        """
        fmt = self.make_format()
        names = list(self.section_names)
        allowed: tuple[type[Exception], ...] = (NoSectionsFoundError, *self.documented_errors)

        def once(text: str) -> None:
            with contextlib.suppress(*allowed):
                fmt.parse(text, names)

        def streaming(text: str) -> None:
            with contextlib.suppress(*allowed):
                parser = fmt.incremental_parser(names)
                for position in range(0, len(text), 5):
                    parser.feed(text[position : position + 5])
                parser.close()

        for label, (prefix, unit) in self._adversarial(fmt).items():

            def make(size: int, prefix: str = prefix, unit: str = unit) -> str:
                return (prefix + unit * (size // len(unit) + 1))[:size]

            for mode, run in (("parse", once), ("stream", streaming)):
                assert_linear(make, run, bound=self.linear_bound, label=f"{label} ({mode})")

    # ------------------------------------------------------------------ prompt and grammar

    def test_describe_names_every_section_with_its_guidance(self) -> None:
        """``describe`` names every section and includes its guidance."""
        fmt = self.make_format()
        sections = self._sections()
        text = fmt.describe(sections)
        for section in sections:
            assert section.name in text, f"describe() does not name {section.name!r}"
            assert section.guidance in text, f"describe() omits the guidance of {section.name!r}"

    def test_the_example_parses_and_the_grammar_accepts_it(self) -> None:
        """``example`` parses back to every section, and the grammar built from the format's rules
        accepts it.
        """
        fmt = self.make_format()
        answer = TextTermination(section_name=self.section_names[-1])
        sections: list[Section] = [
            TextSection(name, "free text") for name in self.section_names[:-1]
        ]
        sections.append(answer)
        example = fmt.example(sections)
        parsed = fmt.parse(example, sections)
        assert [s.name for s in parsed] == list(self.section_names), example
        grammar = agent_grammar(OutputStructure(fmt, sections, None, answer)).text
        check_gbnf(grammar)
        assert GrammarMatcher(grammar).matches(example), f"the grammar refuses:\n{example}"

    def test_an_output_stopped_on_a_stop_sequence_is_restored(self) -> None:
        """An output cut at a stop sequence, plus ``restore_after_stop``, parses like the whole
        output.
        """
        fmt = self.make_format()
        first, closing = self.section_names[0], self.section_names[-1]
        written = fmt.format_sections(
            [FormattedSection(first, "a thought"), FormattedSection(closing, "the end")]
        )
        expected = [(s.name, s.content) for s in fmt.parse(written, self.section_names)]
        observation = fmt.format_observation([FormattedSection("tool", "result")])
        for stop in fmt.stop_sequences([closing]):
            assert isinstance(stop, str) and stop, f"empty stop sequence {stop!r}"
            for full in (written, f"{written}\n{observation}"):
                if stop not in full:
                    continue
                cut = full[: full.index(stop)]
                restored = cut + (fmt.restore_after_stop(closing) or "")
                parsed = fmt.parse(restored, self.section_names)
                assert [(s.name, s.content) for s in parsed] == expected, restored
                assert all(s.complete for s in parsed), restored

    def test_a_section_cut_before_its_closing_delimiter_is_incomplete(self) -> None:
        """A section cut before its closing delimiter is reported as incomplete
        (``complete=False``).
        """
        fmt = self.make_format()
        name = self.section_names[-1]
        closing = fmt.closing_delimiter(name)
        written = fmt.format_section(name, "a long answer")
        parsed = fmt.parse(written, [name])
        assert parsed.sections[-1].complete
        if closing is None:
            return  # sections end implicitly: a cut cannot be seen in the text
        cut = written[: written.rindex(closing)]
        parsed = fmt.parse(cut, [name])
        assert parsed.truncated is not None and not parsed.sections[-1].complete, cut

    def test_grammar_avoid_lists_text(self) -> None:
        """``grammar_avoid`` returns a tuple of strings."""
        fmt = self.make_format()
        avoid: Any = fmt.grammar_avoid(list(self.section_names))
        assert isinstance(avoid, tuple) and all(isinstance(text, str) for text in avoid)
