"""Helpers for tool chains' prompt guidance: the calls a guidance shows, and example calls
built from tools' schemas.

A chain's guidance shows :func:`guidance_calls`: one call, then two in one action, of a made-up
tool, so that no value in it can be mistaken for an answer. A chain writes them
in its own syntax with :meth:`~gent_core.toolchain.ToolChain.format_calls`, inside the
block every chain shares (:func:`call_guidance`).
:meth:`ToolChain.example_calls <gent_core.toolchain.ToolChain.example_calls>` (``gent tools
show``) uses :func:`example_calls`, values from the schemas.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gent_core.toolchain import ToolCall

if TYPE_CHECKING:
    from gent_core.toolchain import ToolChain
    from gent_core.tools.base import Tool

__all__ = [
    "NEUTRAL_CALL",
    "NEUTRAL_CALLS",
    "call_guidance",
    "example_arguments",
    "example_calls",
    "for_example",
    "guidance_calls",
]

NEUTRAL_CALL = ToolCall("search", {"query": "weather in Paris"}, "call_0")
"""The call shown to explain a syntax when a chain has no tools."""

NEUTRAL_CALLS = (
    ToolCall("city_population", {"city": "Lyon"}, "call_0"),
    ToolCall("city_population", {"city": "Porto"}, "call_1"),
)
"""The calls a chain's guidance shows when no tool declares examples: a made-up tool, called
once, then twice in one action (one tool several times, as a task about two things needs)."""


def example_arguments(tool: Tool) -> dict[str, Any]:
    """Return example arguments for ``tool``: concrete values valid for its schema.

    Values come from the schema's ``examples``, ``const``, ``default`` or ``enum`` when
    given, else a valid value of the right type; see :mod:`gent_core._schema_examples`.
    """
    from gent_core._schema_examples import example_arguments as from_schema

    return from_schema(tool.parameters or {})


def example_calls(tools: Sequence[Tool], count: int = 2) -> list[ToolCall]:
    """Return up to ``count`` example calls of different ``tools`` (ids ``call_0``...).

    Without tools, the neutral :data:`NEUTRAL_CALL` is returned.
    """
    from gent_core._schema_examples import example_calls as from_schemas

    if not tools:
        return [NEUTRAL_CALL][:count]
    return [
        ToolCall(name, arguments, f"call_{index}")
        for index, (name, arguments) in enumerate(from_schemas(tools, count))
    ]


def guidance_calls(chain: ToolChain) -> list[ToolCall]:
    """The two calls a chain's guidance shows: the first alone (how to write a call), both
    together (how to write several in one action).

    Always the :data:`NEUTRAL_CALLS` of a made-up tool (:func:`for_example` says it is one),
    whatever ``chain``'s tools are. The guidance is in the system text for the whole run, so
    no value of a real tool is shown there: a small model whose call failed answers with a
    value it finds in its prompt (with the calculator's declared ``12.5 times 8`` here, it
    wrote "the calculator returned 12.5"). The agent's own tools' worked examples are the
    few-shot's, which a prompt withdraws once a call fails. Values made from a schema
    (``"example company name"``, ``3``) are never shown either.
    """
    return [ToolCall(call.tool, dict(call.args), call.id) for call in NEUTRAL_CALLS]


def for_example(chain: ToolChain, calls: Sequence[ToolCall]) -> str:
    """How a guidance introduces ``calls``: ``"for example:"``, or, when they call a tool the
    chain does not have (:data:`NEUTRAL_CALLS`), ``"for example (city_population is a made-up
    tool):"`` so that no model takes it for one of its own.
    """
    names = {tool.name for tool in chain.tools}
    made_up = sorted({call.tool for call in calls if call.tool not in names})
    if not made_up:
        return "for example:"
    return f"for example ({', '.join(made_up)} is a made-up tool):"


def call_guidance(
    chain: ToolChain,
    *,
    syntax: str,
    several: str,
    written: str,
    notes: Sequence[str] = (),
    tool_list: str | None = None,
) -> str:
    """The guidance block of a chain whose calls are text: the chain's parts in a frame.

    The parts the chain fills in go between the lines every chain shares:

    1. ``syntax`` then :func:`for_example` (``"... (its arguments), for example:"``), and
       the first of :func:`guidance_calls` written by the chain's
       :meth:`~gent_core.toolchain.ToolChain.format_calls`;
    2. ``"To call several tools, or one tool several times, in one step, <several>:"`` and
       both calls written together;
    3. the ``notes``, one line each;
    4. ``"Write only <written> here. Each result comes back in the observation, in a
       section named after the tool."``;
    5. ``"Available tools:"`` and ``tool_list`` (``"(none)"`` when empty).

    Trailing line ends of the written calls are dropped (a YAML block ends with one).

    Args:
        chain: The chain; its tools choose the calls shown.
        syntax: How a call is written, up to the example (``'Call tools by writing JSON:
            ... (its arguments), '``).
        several: How several calls are written in one step (``"write a list of calls"``).
        written: What the section holds (``"the JSON"``, ``"the calls"``).
        notes: Lines on the syntax shown after the examples (multi-line values...).
        tool_list: The tools, one line each (default:
            :meth:`~gent_core.toolchain.ToolChain.describe_tools`).
    """
    examples = guidance_calls(chain)
    tools = chain.describe_tools() if tool_list is None else tool_list
    return "\n".join(
        [
            syntax + for_example(chain, examples),
            chain.format_calls(examples[:1]).rstrip("\n"),
            f"To call several tools, or one tool several times, in one step, {several}:",
            chain.format_calls(examples).rstrip("\n"),
            *notes,
            f"Write only {written} here. Each result comes back in the observation, in a "
            "section named after the tool.",
            "Available tools:",
            tools or "(none)",
        ]
    )
