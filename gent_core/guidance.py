"""What the model reads about calls: the call guidance of tool chains, the base-model prompt.

* the block every tool chain's prompt guidance shares and the calls it shows
  (:func:`call_guidance`, :func:`guidance_calls`, :func:`for_example`);
* the plain transcript prompt of base models and a chat model's conversation with worked
  examples as earlier turns (:func:`render_prompt`, :func:`render_chat`,
  :func:`default_examples`, :data:`TRANSCRIPT_STOP`, :func:`example_arguments`).

It imports only the contracts and the toolkits below them, never the command line, the agent
loop or the configuration. Names load lazily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core._lazy import export_names, load_export

_EXPORTS: dict[str, str] = {
    # call guidance (tool chains)
    "call_guidance": "gent_core._guidance",
    "for_example": "gent_core._guidance",
    "guidance_calls": "gent_core._guidance",
    # the base-model prompt and its examples (moving to the gent-prompt distribution: keep
    # this block whole)
    "TRANSCRIPT_STOP": "gent_core._base_prompt",
    "default_examples": "gent_core._base_prompt",
    "render_chat": "gent_core._base_prompt",
    "render_prompt": "gent_core._base_prompt",
    "example_arguments": "gent_core._schema_examples",
}

if TYPE_CHECKING:
    from gent_core._base_prompt import (
        TRANSCRIPT_STOP,
        default_examples,
        render_chat,
        render_prompt,
    )
    from gent_core._guidance import (
        call_guidance,
        for_example,
        guidance_calls,
    )
    from gent_core._schema_examples import (
        example_arguments,
    )

__all__ = [
    "TRANSCRIPT_STOP",
    "call_guidance",
    "default_examples",
    "example_arguments",
    "for_example",
    "guidance_calls",
    "render_chat",
    "render_prompt",
]


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())
