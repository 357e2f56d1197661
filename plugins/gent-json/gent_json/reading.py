"""Read JSON tool calls from an action section: :func:`read_json_calls`."""

from __future__ import annotations

from gent_core.errors import InvalidJSONError, Location
from gent_core.textscan import quote_start
from gent_core.toolchain import ToolCall
from gent_json.calls import JSON_SYNTAX, calls_from_values
from gent_json.fences import is_blank
from gent_json.lenient import JSON_CALL_FORM, find_json_values

__all__ = ["read_json_calls"]


def read_json_calls(text: str, *, section: str | None = None) -> list[ToolCall]:
    """Read the tool calls written as JSON in ``text`` (ids ``call_0``, ``call_1``...).

    Args:
        text: The section's content: one call object, a list of calls, or several of those
            one after another, possibly in code fences and among prose.
        section: The section name, for error locations and messages.

    Returns:
        The calls in order; empty when ``text`` is blank (or an empty fence or list).

    Raises:
        TruncatedCallError: A call was cut off; nothing is executed.
        InvalidJSONError: A call does not parse, or ``text`` holds prose but no call.
        MissingToolNameError: A call does not name its tool.
    """
    values = find_json_values(text, section=section)
    if not values:
        if is_blank(text):
            return []
        where = f"the {section} section" if section else "your output"
        raise InvalidJSONError(
            "no JSON tool call found",
            location=Location(section=section),
            model_message=(
                f"No tool call found in {where}: `{quote_start(text)}`.\n{JSON_CALL_FORM}"
            ),
        )
    return calls_from_values([value for value, _ in values], syntax=JSON_SYNTAX, section=section)
