"""Grammar building for constrained generation: GBNF rules from components and schemas.

* the builder and its rules (:class:`GrammarBuilder`, :func:`literal`, :func:`free_text`),
  and the text a format writes around a section's content (:func:`section_delimiters`);
* JSON Schema to GBNF (:class:`JSONSchemaConverter`, :func:`arguments_schema`,
  :func:`follow_refs`), the calls of an action (:class:`CallableTool`, :func:`repeat_calls`,
  :data:`MAX_CALLS`);
* the whole output's grammar and its check (:func:`build_agent_grammar`,
  :func:`check_gbnf`), and a grammar run on text (:class:`GrammarMatcher`, :func:`sample`).
  A back end that would rather generate unconstrained than fail uses gent-prompt's
  ``checked_agent_grammar``.

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
    "section_delimiters": "gent_core._grammar",
    "follow_refs": "gent_core._schema_refs",
    # the calls of an action
    "MAX_CALLS": "gent_core._grammar",
    "CallableTool": "gent_core._grammar.calls",
    "repeat_calls": "gent_core._grammar",
    # the whole output, checked; matching and sampling
    "build_agent_grammar": "gent_core._grammar",
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
        free_text,
        literal,
        repeat_calls,
        section_delimiters,
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
    "follow_refs",
    "free_text",
    "literal",
    "repeat_calls",
    "sample",
    "section_delimiters",
]


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())
