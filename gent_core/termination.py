"""The :class:`Termination` contract: the section holding the final answer."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gent_core._grammar.builder import GrammarBuilder

__all__ = ["Termination"]


class Termination(ABC):
    """A section (default name ``answer``) whose parse gives the run's final answer.

    A subclass supplies :meth:`parse`; it may refine :attr:`guidance`,
    :meth:`example_answer` (the answer shown in examples) and :meth:`grammar_answer`. The
    conformance kit (:class:`gent_core.testing.TerminationConformance`) checks it.

    Args:
        section_name: The section the answer is written in.
        guidance: Prompt text replacing the default guidance.
    """

    default_guidance: str = "Your final answer."

    def __init__(self, *, section_name: str = "answer", guidance: str | None = None) -> None:
        self._section_name = section_name
        self._guidance = guidance

    @property
    def name(self) -> str:
        """The section name (``"answer"``)."""
        return self._section_name

    @property
    def guidance(self) -> str:
        """Prompt text explaining what the answer must look like."""
        return self._guidance if self._guidance is not None else self.default_guidance

    @abstractmethod
    def parse(self, content: str) -> object | None:
        """Turn the answer section's text into the final answer.

        ``content`` is the section's text as written, untrimmed (surrounding whitespace is
        the format's; trim it unless it matters).

        Returns:
            The answer, or ``None`` when ``content`` holds no answer yet (e.g. empty).

        Raises:
            TerminationError: With a model-facing message saying what is accepted.
        """

    def example_answer(self, draft: str) -> str:
        """Return the text of an example answer section, for guidance and few-shot examples.

        Args:
            draft: What the example answer says in words (``"The calculator tool returned
                42, so the answer is 42."``). A plain-text termination writes it as is; a
                structured one writes an example of its own shape instead.

        Returns:
            Text that :meth:`parse` accepts (and the answer grammar, if any, allows).
        """
        return draft

    def grammar_answer(self, builder: GrammarBuilder) -> str | None:
        """Return the GBNF expression of the answer section's content, adding helper rules to
        ``builder`` (quoted values must never contain the texts in ``builder.avoid``).

        The default ``None`` makes the answer the format's free text.
        """
        return None
