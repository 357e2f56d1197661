"""gent-prompt: what gent's model back ends send, built from the agent's components.

* :func:`render_prompt`, the raw prompt of a base model: the conversation as a transcript,
  with few-shot examples in the agent's own format (:mod:`gent_prompt.base_prompt`);
  :data:`TRANSCRIPT_STOP` is the stop sequence of a prompt without an output structure;
* :func:`render_chat`, an instruct model's conversation with the worked examples as earlier
  turns;
* :class:`FewShotExample`, :func:`default_examples`, :func:`render_examples` and
  :data:`RECOVERY_EXAMPLE`: examples as data, the ones gent shows (the declared examples most
  like the task, :mod:`gent_prompt.example_choice`) and how they are written;
* :func:`checked_agent_grammar`, the agent's grammar checked before a back end sends it
  (:mod:`gent_prompt.grammar`).

Model back ends (gent-llamacpp, gent-openai, gent-bfcl's baselines) depend on this
distribution and import these names from ``gent_prompt``; it registers no plugin. Every piece
of an example is written by the agent's components through gent's contracts, so nothing here
knows a format or a call syntax. Names load on first use (PEP 562).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core import export_names, load_export

_EXPORTS = {
    "RECOVERY_EXAMPLE": "gent_prompt.base_prompt",
    "TRANSCRIPT_STOP": "gent_prompt.base_prompt",
    "FewShotExample": "gent_prompt.base_prompt",
    "default_examples": "gent_prompt.base_prompt",
    "render_chat": "gent_prompt.base_prompt",
    "render_examples": "gent_prompt.base_prompt",
    "render_prompt": "gent_prompt.base_prompt",
    "checked_agent_grammar": "gent_prompt.grammar",
}

if TYPE_CHECKING:
    from gent_prompt.base_prompt import (
        RECOVERY_EXAMPLE,
        TRANSCRIPT_STOP,
        FewShotExample,
        default_examples,
        render_chat,
        render_examples,
        render_prompt,
    )
    from gent_prompt.grammar import checked_agent_grammar

__all__ = [
    "RECOVERY_EXAMPLE",
    "TRANSCRIPT_STOP",
    "FewShotExample",
    "checked_agent_grammar",
    "default_examples",
    "render_chat",
    "render_examples",
    "render_prompt",
]


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())
