"""The ``text`` termination: the answer is the section's trimmed text."""

from __future__ import annotations

from gent_core.termination import Termination

__all__ = ["TextTermination"]


class TextTermination(Termination):
    """The final answer is the answer section's text, trimmed; empty text is no answer yet."""

    default_guidance = "Your final answer for the user, in plain text. Write it only when done."

    def parse(self, content: str) -> str | None:
        """Return the trimmed ``content``, or ``None`` when it is empty."""
        text = content.strip()
        return text or None
