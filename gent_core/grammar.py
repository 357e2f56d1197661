"""Grammar building for constrained generation: GBNF rules from components and schemas.

* the builder and its rules (:class:`GrammarBuilder`, :func:`literal`, :func:`free_text`);
* JSON Schema to GBNF (:class:`JSONSchemaConverter`, :func:`arguments_schema`,
  :func:`follow_refs`), the calls of an action (:class:`CallableTool`, :func:`repeat_calls`,
  :data:`MAX_CALLS`);
* the whole output's grammar, checked before use (:func:`build_agent_grammar`,
  :func:`checked_agent_grammar`, :func:`check_gbnf`), and a grammar run on text
  (:class:`GrammarMatcher`, :func:`sample`).

A toolkit with a floor: it imports only the contracts and the values below them, never the
command line, the agent loop or the configuration. Names load lazily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core._lazy import export_names, load_export

_EXPORTS: dict[str, str] = {
    # rules and schemas
    "GrammarBuilder": "gent_core._grammar",
    "JSONSchemaConverter": "gent_core._grammar",
    "arguments_schema": "gent_core._grammar",
    "free_text": "gent_core._grammar",
    "literal": "gent_core._grammar",
    "follow_refs": "gent_core._schema_refs",
    # the calls of an action
    "MAX_CALLS": "gent_core._grammar",
    "CallableTool": "gent_core._grammar.calls",
    "repeat_calls": "gent_core._grammar",
    # the whole output, checked; matching and sampling
    "build_agent_grammar": "gent_core._grammar",
    "checked_agent_grammar": "gent_core._grammar",
    "check_gbnf": "gent_core._grammar",
    "GrammarMatcher": "gent_core._grammar.match",
    "sample": "gent_core._grammar.sample",
}

if TYPE_CHECKING:
    from gent_core._grammar import (
        MAX_CALLS,
        GrammarBuilder,
        JSONSchemaConverter,
        arguments_schema,
        build_agent_grammar,
        check_gbnf,
        checked_agent_grammar,
        free_text,
        literal,
        repeat_calls,
    )
    from gent_core._grammar.calls import (
        CallableTool,
    )
    from gent_core._grammar.match import (
        GrammarMatcher,
    )
    from gent_core._grammar.sample import (
        sample,
    )
    from gent_core._schema_refs import (
        follow_refs,
    )

__all__ = [
    "CallableTool",
    "GrammarBuilder",
    "GrammarMatcher",
    "JSONSchemaConverter",
    "MAX_CALLS",
    "arguments_schema",
    "build_agent_grammar",
    "check_gbnf",
    "checked_agent_grammar",
    "follow_refs",
    "free_text",
    "literal",
    "repeat_calls",
    "sample",
]


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())
