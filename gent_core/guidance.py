"""What the model reads about calls: the call guidance of tool chains, a failed call's text.

* the block every tool chain's prompt guidance shares and the calls it shows
  (:func:`call_guidance`, :func:`guidance_calls`, :func:`for_example`), and example
  arguments made from a tool's argument schema (:func:`example_arguments`);
* what the observation text of a failed call starts with (:data:`ERROR_PREFIX`), so that a
  worked example or a converted conversation writes a failure as the agent does.

The prompts model back ends send (the base-model transcript, a chat with worked examples)
are the gent-prompt distribution's (``gent_prompt``), built on these names.

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
    "example_arguments": "gent_core._schema_examples",
    # a failed call's observation
    "ERROR_PREFIX": "gent_core._observation",
}

if TYPE_CHECKING:
    from gent_core._guidance import (
        call_guidance,
        for_example,
        guidance_calls,
    )
    from gent_core._observation import (
        ERROR_PREFIX,
    )
    from gent_core._schema_examples import (
        example_arguments,
    )

__all__ = [
    "ERROR_PREFIX",
    "call_guidance",
    "example_arguments",
    "for_example",
    "guidance_calls",
]


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())
