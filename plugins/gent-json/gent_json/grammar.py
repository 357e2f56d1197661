"""The grammar of JSON tool calls, restricted to the agent's tools and argument schemas.

One call object, or a list of them::

    {"tool": "calculator", "args": {"expression": "2 + 2"}}
    [{"tool": "a", "args": {...}}, {"tool": "b", "args": {...}}]
"""

from __future__ import annotations

from collections.abc import Sequence

from gent_core.grammar import (
    CallableTool,
    GrammarBuilder,
    JSONSchemaConverter,
    arguments_schema,
    repeat_calls,
)

__all__ = ["json_calls"]


def json_calls(builder: GrammarBuilder, tools: Sequence[CallableTool]) -> str:
    """Add the rules for JSON tool calls and return the calls rule's name.

    The rule accepts one call object or an array of up to
    ``builder.max_calls`` call objects (the agent's ``limits.max_calls_per_action``;
    :data:`~gent_core.grammar.MAX_CALLS` by default); each names one of ``tools`` and has
    arguments valid for that tool's schema. Strings never hold the texts the format must not
    see (``builder.avoid``).
    """
    converter = JSONSchemaConverter(builder, flavor="json")
    ws = converter.ws
    alternatives = []
    for tool in tools:
        args = converter.convert(arguments_schema(tool), f"{tool.name}-args")
        expression = (
            f'"{{" {ws} "\\"tool\\"" {ws} ":" {ws} {converter.constant(tool.name)} "," {ws} '
            f'"\\"args\\"" {ws} ":" {ws} {args} {ws} "}}"'
        )
        alternatives.append(builder.add(f"{tool.name}-call", expression))
    call = builder.add("call", " | ".join(alternatives))
    array = repeat_calls(
        call,
        f'"," {ws}',
        opening=f'"[" {ws}',
        closing=f'{ws} "]"',
        max_calls=builder.max_calls,
    )
    return builder.add("calls", f"{call} | {array}")
