"""The :class:`Termination` contract: the section holding the final answer."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gent_core.grammar.builder import GrammarBuilder

__all__ = ["Termination"]


class Termination(ABC):
    """A section (default name ``answer``) whose parse gives the run's final answer.

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

        Returns:
            The answer, or ``None`` when ``content`` holds no answer yet (e.g. empty).

        Raises:
            TerminationError: With a model-facing message saying what is accepted.
        """

    def grammar_answer(self, builder: GrammarBuilder) -> str | None:
        """Optional: return the GBNF expression of the answer section's content.

        The default ``None`` uses the JSON Schema of the ``json`` termination, and the
        format's free text for any other termination.
        """
        return None
