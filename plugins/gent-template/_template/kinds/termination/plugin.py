"""The ``template`` termination: a plain-text answer ending with how sure the model is.

For example::

    The calculator returned 42, so the answer is 42.
    Confidence: high

The parsed answer is ``{"answer": ..., "confidence": ...}``. Replace this example with
your own termination.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from gent_core import Termination, hookimpl
from gent_core.errors import TerminationError

if TYPE_CHECKING:
    from gent_core.grammar import GrammarBuilder

__all__ = ["LEVELS", "TemplateTermination", "gent_register_terminations"]

LEVELS = ("high", "medium", "low")
"""The confidence levels the model may give."""

_PREFIX = "confidence:"


class TemplateTermination(Termination):
    """A plain-text answer whose last line says how sure the model is."""

    default_guidance = (
        "Your final answer, then a last line 'Confidence: high', 'Confidence: medium' or "
        "'Confidence: low'."
    )

    def parse(self, content: str) -> dict[str, str] | None:
        """Read the answer and its confidence.

        Returns:
            ``{"answer": text, "confidence": level}``, or ``None`` for an empty section.

        Raises:
            TerminationError: When the confidence line is missing or names another level, or
                there is no answer before it.
        """
        text = content.strip()
        if not text:
            return None
        answer, _, last = text.rpartition("\n")
        if not last.strip().lower().startswith(_PREFIX):
            raise TerminationError(
                "the answer does not end with its confidence",
                hint=f"End the answer with a line 'Confidence: {LEVELS[0]}' (or "
                f"{', '.join(LEVELS[1:])}).",
            )
        level = last.strip()[len(_PREFIX) :].strip().lower()
        if level not in LEVELS:
            raise TerminationError(
                f"unknown confidence {level!r}", hint=f"Write one of: {', '.join(LEVELS)}."
            )
        if not answer.strip():
            raise TerminationError(
                "the answer is empty", hint="Write the answer before the confidence line."
            )
        return {"answer": answer.strip(), "confidence": level}

    def example_answer(self, draft: str) -> str:
        """``draft``, then a confidence line."""
        return f"{draft}\nConfidence: high"

    def grammar_answer(self, builder: GrammarBuilder) -> str:
        """Free text, a line break, then the confidence line."""
        from gent_core.grammar import free_text

        text = free_text(builder, "answer-text", builder.avoid)
        levels = " | ".join(f'"{level}"' for level in LEVELS)
        return builder.add("answer", f'{text} "\\nConfidence: " ({levels})')


@hookimpl
def gent_register_terminations() -> Mapping[str, Callable[..., Termination]]:
    """Supply the ``template`` termination."""
    return {"template": TemplateTermination}
