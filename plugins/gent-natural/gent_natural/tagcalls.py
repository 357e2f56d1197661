"""Tool calls written as ``<tool_call name="X">{json}</tool_call>`` tags: read and write.

These are the ``natural`` tool chain's call language, as plain functions:
:func:`read_tag_calls` reads the calls of an action section, :func:`write_tag_calls` writes
calls so that :func:`read_tag_calls` gives them back.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from gent_core.errors import (
    InvalidJSONError,
    Location,
    MissingToolNameError,
    ParseError,
    TruncatedCallError,
)
from gent_core.textscan import quote_start
from gent_core.toolchain import ToolCall
from gent_natural.reading import MalformedCall, NotACall, read_call
from gent_natural.scanner import BrokenElement, Element, ProseText, TagScanner
from gent_natural.tags import CALL_TAG, write_element

__all__ = ["TAG_CALL_FORM", "read_tag_calls", "write_tag_calls"]

TAG_CALL_FORM = (
    'Write each call as <tool_call name="<tool name>">{<the arguments as a JSON object>}'
    "</tool_call>; write several calls one after the other."
)
"""The accepted form of calls, quoted in error messages for the model."""


def write_tag_calls(calls: Sequence[ToolCall], *, indent: int | None = 2) -> str:
    """Write ``calls`` as ``<tool_call>`` tags, one after the other on their own lines.

    Raises:
        ValueError: When arguments cannot be written as JSON (NaN, too deep...).
    """
    return "\n".join(
        write_element(
            CALL_TAG,
            json.dumps(call.args, indent=indent, ensure_ascii=False, allow_nan=False),
            {"name": call.tool},
        )
        for call in calls
    )


def _location(section: str | None) -> Location:
    return Location(section=section)


def _from_element(element: Element, number: int, section: str | None) -> list[ToolCall]:
    try:
        readings = read_call(element)
    except NotACall as error:
        malformed = isinstance(error, MalformedCall)
        kind = ParseError if malformed else MissingToolNameError
        said = "is malformed" if malformed else "does not name its tool"
        raise kind(
            f"call {number}: {error}",
            location=_location(section),
            model_message=f"Call {number} {said}: {error}.\n{TAG_CALL_FORM}",
        ) from None
    calls = []
    for offset, reading in enumerate(readings):
        if reading.problem is not None:
            raise InvalidJSONError(
                f"call {number + offset} ({reading.name}): {reading.problem}",
                location=Location(section=section, tool=reading.name),
                model_message=(
                    f"Call {number + offset} to {reading.name!r} is malformed: "
                    f"{reading.problem}.\n{TAG_CALL_FORM}"
                ),
            )
        calls.append(ToolCall(reading.name, json.loads(reading.arguments)))
    return calls


def read_tag_calls(content: str, *, section: str | None = None) -> list[ToolCall]:
    """Read the ``<tool_call>`` tags in ``content`` (ids ``call_0``, ``call_1``...).

    Both ``<tool_call name="X">{arguments}</tool_call>`` and the Hermes/Qwen form
    ``<tool_call>{"name": "X", "arguments": {...}}</tool_call>`` are read; prose around the
    tags and ``<tool_response>`` elements are ignored.

    Args:
        content: The section's text.
        section: The section's name, for error locations.

    Returns:
        The calls in order; empty when ``content`` is blank.

    Raises:
        TruncatedCallError: A tag was cut off (never closed).
        InvalidJSONError: Arguments that are not one JSON object, or prose but no call.
        MissingToolNameError: A tag that does not name its tool.
        ParseError: A tag that names its tool twice (or writes another attribute twice), or
            holds another ``<tool_call>``.
    """
    scanner = TagScanner()
    calls: list[ToolCall] = []
    prose: list[str] = []
    for event in scanner.feed(content) + scanner.close():
        if isinstance(event, ProseText):
            prose.append(event.text)
        elif isinstance(event, BrokenElement):
            raise TruncatedCallError(
                f"tool call cut off: {event.problem}",
                location=_location(section),
                model_message=(
                    f"Your call was cut off after `{quote_start(event.raw[-40:])}` "
                    f"({event.problem}); write the complete call again."
                ),
            )
        elif event.tag == CALL_TAG:
            calls += _from_element(event, len(calls) + 1, section)
    if not calls and "".join(prose).strip():
        where = f"the {section} section" if section else "your output"
        raise InvalidJSONError(
            "no <tool_call> tag found",
            location=_location(section),
            model_message=f"No tool call found in {where}: `{quote_start(''.join(prose))}`."
            f"\n{TAG_CALL_FORM}",
        )
    return [ToolCall(call.tool, call.args, f"call_{index}") for index, call in enumerate(calls)]
