"""``TerminationConformance``: the checks every :class:`~gent_core.termination.Termination`
must pass.
"""

from __future__ import annotations

import contextlib
import random
from typing import ClassVar

import hypothesis.strategies as st
import pytest
from hypothesis import given

from gent_core._grammar.builder import GrammarBuilder
from gent_core._grammar.check import check_gbnf
from gent_core._grammar.match import GrammarMatcher
from gent_core._grammar.sample import sample
from gent_core.errors import TerminationError
from gent_core.termination import Termination
from gent_core.testing._conformance.settings import kit_settings

__all__ = ["TerminationConformance"]

_SETTINGS = kit_settings()
_DRAFT = "The calculator tool returned 42, so the answer is 42."


class TerminationConformance:
    """Checks a termination against the :class:`~gent_core.termination.Termination`
    contract.

    Subclass it in a test module (name the subclass ``Test...``) and implement
    :meth:`make_termination`.

    Attributes:
        documented_errors: What :meth:`~gent_core.termination.Termination.parse` may raise
            (:class:`~gent_core.errors.TerminationError` by default).
    """

    documented_errors: ClassVar[tuple[type[Exception], ...]] = (TerminationError,)

    def make_termination(self) -> Termination:
        """Return the termination under test (a fresh instance)."""
        raise NotImplementedError("implement make_termination() to return it")

    def test_it_is_a_named_section_with_guidance(self) -> None:
        """The termination has a section name and guidance text."""
        termination = self.make_termination()
        assert isinstance(termination.name, str) and termination.name.strip()
        assert isinstance(termination.guidance, str) and termination.guidance.strip()

    def test_the_example_answer_parses(self) -> None:
        """``parse(example_answer(...))`` gives an answer, also with white space around it."""
        termination = self.make_termination()
        example = termination.example_answer(_DRAFT)
        assert termination.parse(example) is not None, example
        # A format hands the section's text over untrimmed.
        assert termination.parse(f"\n{example}\n") == termination.parse(example)

    def test_an_empty_answer_is_no_answer_yet(self) -> None:
        """Empty or blank text is no answer yet (``None``)."""
        termination = self.make_termination()
        assert termination.parse("") is None
        assert termination.parse(" \n\t ") is None

    @_SETTINGS
    @given(text=st.text(st.characters(codec="utf-8")))
    def test_no_text_raises_anything_but_documented_errors(self, text: str) -> None:
        """No text makes ``parse`` raise anything but the documented errors."""
        termination = self.make_termination()
        with contextlib.suppress(*self.documented_errors):
            termination.parse(text)

    def _grammar(self, termination: Termination) -> str:
        builder = GrammarBuilder(avoid=("</answer>",))
        rule = termination.grammar_answer(builder)
        if rule is None:
            pytest.skip("the termination offers no grammar (the answer is the format's free text)")
        text = builder.build(rule).text
        check_gbnf(text)
        return text

    def test_the_grammar_accepts_the_example_answer(self) -> None:
        """The answer grammar accepts the example answer."""
        termination = self.make_termination()
        example = termination.example_answer(_DRAFT)
        assert GrammarMatcher(self._grammar(termination)).matches(example), example

    def test_every_output_of_the_grammar_parses(self) -> None:
        """Random outputs of the answer grammar parse into an answer."""
        termination = self.make_termination()
        grammar = self._grammar(termination)
        rng = random.Random(7)
        for _ in range(40):
            written = sample(grammar, rng, max_repeat=3)
            assert termination.parse(written) is not None, written
