"""The agent's grammar as a back end sends it: built from the components and checked first.

A malformed grammar can crash llama.cpp, so a back end that constrains generation sends only
a grammar that passes gent's GBNF checker (:func:`~gent_core.grammar.check_gbnf`, which
rejects what llama.cpp's parser rejects); a grammar that cannot be built or fails the check is
dropped with a warning, and the back end generates unconstrained.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from gent_core.errors import GentError
from gent_core.grammar import build_agent_grammar, check_gbnf

if TYPE_CHECKING:
    from gent_core.model import OutputStructure

__all__ = ["checked_agent_grammar"]


def checked_agent_grammar(structure: OutputStructure, logger: logging.Logger) -> str | None:
    """Build the agent's grammar and check it with :func:`~gent_core.grammar.check_gbnf`, for
    back ends that would rather generate unconstrained than fail.

    Returns:
        The grammar text, or ``None`` (after a warning on ``logger``) when it cannot be built
        or fails the check.
    """
    try:
        text = build_agent_grammar(structure).text
        check_gbnf(text)
    except GentError as error:
        logger.warning("no grammar for this agent, generating unconstrained: %s", error)
        return None
    except Exception as error:  # noqa: BLE001 - a component's bug must not stop the run
        logger.warning(
            "no grammar for this agent, generating unconstrained: a component's grammar "
            "method raised %s: %s",
            type(error).__name__,
            error,
        )
        return None
    return text
