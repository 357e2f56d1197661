"""Read one element: a ``<tool_call>`` into calls, a ``<tool_response>`` into a result.

Accepted calls:

* ``<tool_call name="X">`` with a JSON object of arguments as its body, fenced or not, read
  by gent's lenient JSON reader (:func:`gent_json.find_json_values`); an empty body
  means no arguments. A body ``{"name": "X", "arguments": {...}}`` naming the same tool is
  unwrapped;
* the Hermes/Qwen form ``<tool_call>{"name": "X", "arguments": {...}}</tool_call>`` (also
  ``tool``/``args``/``parameters``, arguments as a JSON string, or a list of calls).

Arguments (and responses) written exactly as ``pretty_print_json`` writes them are stored as
compact JSON; other strict JSON objects are kept as written, so text -> native -> text gives
the text back whatever the options.

A ``<tool_call name="X">`` always gives a call, since its tag says what was meant; arguments
that are not a JSON object are kept exactly as written and reported as the call's problem.
A Hermes body that does not name a tool is not a call (:class:`NotACall`), nor is a malformed
element (:class:`MalformedCall`): one whose tag writes an attribute twice (two ``name``
attributes: which tool?) or whose body holds another ``<tool_call>`` (calls are written one
after the other, never one inside another). When the tools are
known, arguments are checked with :meth:`gent_core.tools.Tool.validate_arguments`; a call
to an unknown tool or with invalid arguments keeps the arguments as written and reports the
problem.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gent_json import calls_from_values, find_json_values, normalize_call, scan

from gent_core.bounds import ValueBoundsError, check_value
from gent_core.errors import GentError, describe_error
from gent_natural.scanner import Element
from gent_natural.tags import CALL_TAG, MISSING_RESULT, RESPONSE_TAG, strip_joiners

if TYPE_CHECKING:
    from gent_core.tools.base import Tool

__all__ = [
    "CallReading",
    "MalformedCall",
    "NotACall",
    "ResponseReading",
    "check_arguments",
    "compact_json",
    "read_call",
    "read_response",
]

_TRUE = frozenset({"true", "1", "yes"})
_OPENING_TAG = re.compile(
    "<(" + "|".join(re.escape(tag) for tag in (CALL_TAG, RESPONSE_TAG)) + r")(?=[ \t\r\n>])",
    re.IGNORECASE,
)


class NotACall(ValueError):
    """A ``<tool_call>`` element that does not say which tool to call; kept as text."""


class MalformedCall(NotACall):
    """A ``<tool_call>`` element written wrongly (an attribute twice, a nested element); its
    message says what is wrong and what is accepted.
    """


def _nested_tag(body: str) -> str | None:
    """The tag of an element opened in ``body`` outside its JSON values, if any: a
    ``<tool_call>`` inside a JSON string is text, one beside the arguments is a nested call.
    """
    found = _OPENING_TAG.search(body)
    if found is None:
        return None
    spans = scan(body).spans
    for match in _OPENING_TAG.finditer(body):
        if not any(span.start < match.start() < span.end for span in spans):
            return match.group(1).lower()
    return None


def _malformed(element: Element, body: str) -> str | None:
    """What makes ``element`` (whose body is ``body``) malformed as a call, or ``None``."""
    for key, values in element.repeated.items():
        written = " and ".join(f'{key}="{value}"' for value in values)
        if key == "name":
            return (
                f"the <{element.tag}> tag names its tool {len(values)} times ({written}); "
                "give one name attribute per tag, one tag per call"
            )
        return (
            f"the <{element.tag}> tag writes the attribute {key!r} {len(values)} times ({written})"
        )
    nested = _nested_tag(body)
    if nested is not None:
        return (
            f"the <{element.tag}> holds another <{nested}> tag; write each call as a tag of its "
            "own, one after the other, never one inside another"
        )
    return None


@dataclass(frozen=True)
class CallReading:
    """One call read from an element.

    Attributes:
        name: The tool's name.
        arguments: The arguments as JSON text, or the body as written when it is not a JSON
            object.
        problem: Why the call cannot run as written (bad JSON, unknown tool, invalid
            arguments), or ``None``.
    """

    name: str
    arguments: str
    problem: str | None = None


@dataclass(frozen=True)
class ResponseReading:
    """A ``<tool_response>`` element.

    Attributes:
        name: The ``name`` attribute, or ``None``.
        content: The body (the line breaks around it removed).
        is_error: Whether it has ``error="true"``.
        missing: Whether it is the note written for a call without a result.
    """

    name: str | None
    content: str
    is_error: bool
    missing: bool


def _dumps(arguments: Mapping[str, Any]) -> str:
    return json.dumps(dict(arguments), ensure_ascii=False)


def check_arguments(
    name: str, arguments: Mapping[str, Any], tools: Mapping[str, Tool] | None
) -> str | None:
    """Return the problem with calling tool ``name`` with ``arguments``, or ``None``
    (always ``None`` when ``tools`` is ``None``: nothing is known to check against).
    """
    if tools is None:
        return None
    tool = tools.get(name)
    if tool is None:
        available = ", ".join(tools) or "none"
        return f"unknown tool {name!r} (available: {available})"
    try:
        tool.validate_arguments(arguments)
    except GentError as error:
        return error.model_message
    except Exception as error:  # noqa: BLE001 - a validator bug is reported like bad arguments
        return f"invalid arguments for {name!r}: {describe_error(error)}"
    return None


def compact_json(text: str) -> str:
    """Undo the writer's pretty-printing: ``text`` as compact JSON when it is exactly what
    ``pretty_print_json`` writes for a JSON value, else ``text`` unchanged.
    """
    if "\n" not in text or text[:1] not in ("{", "["):
        return text
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return text
    if json.dumps(value, indent=2, ensure_ascii=False) != text:
        return text
    return json.dumps(value, ensure_ascii=False)


def _strict_object(body: str) -> dict[str, Any] | None:
    stripped = body.strip()
    if stripped[:1] != "{":
        return None
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _named_call(name: str, body: str, tools: Mapping[str, Tool] | None) -> CallReading:
    if not body.strip():
        return CallReading(name, "{}", check_arguments(name, {}, tools))
    strict = _strict_object(body)
    if strict is not None and not _is_wrapped(strict, name):
        bounds = _out_of_bounds(strict)
        if bounds is not None:
            return CallReading(name, body, bounds)
        return CallReading(name, compact_json(body.strip()), check_arguments(name, strict, tools))
    try:
        values = find_json_values(body)
    except (GentError, ValueError) as error:
        reason = error.message if isinstance(error, GentError) else str(error)
        return CallReading(name, body, f"the arguments are not valid JSON: {reason}")
    if len(values) != 1 or not isinstance(values[0][0], dict):
        found = "no JSON object" if not values else "not one JSON object"
        return CallReading(name, body, f"the arguments must be one JSON object ({found} found)")
    arguments: dict[str, Any] = values[0][0]
    if _is_wrapped(arguments, name):
        try:
            _, arguments = normalize_call(arguments, 1)
        except GentError as error:
            return CallReading(name, body, error.message)
    bounds = _out_of_bounds(arguments)
    if bounds is not None:
        return CallReading(name, body, bounds)
    return CallReading(name, _dumps(arguments), check_arguments(name, arguments, tools))


def _out_of_bounds(arguments: Mapping[str, Any]) -> str | None:
    """What is beyond gent's value bounds in ``arguments`` (nesting, huge integers...)."""
    try:
        check_value(arguments, name="arguments")
    except ValueBoundsError as error:
        return error.problem
    return None


def _is_wrapped(arguments: Mapping[str, Any], name: str) -> bool:
    """Whether ``arguments`` is a whole Hermes call naming tool ``name``."""
    keys = set(arguments)
    return keys in ({"name", "arguments"}, {"name", "parameters"}) and arguments["name"] == name


def _hermes_calls(body: str, tools: Mapping[str, Tool] | None) -> list[CallReading]:
    try:
        values = find_json_values(body)
        calls = calls_from_values([value for value, _ in values])
    except GentError as error:
        raise NotACall(error.message) from None
    except ValueError as error:  # a number beyond what Python reads
        raise NotACall(str(error)) from None
    if not calls:
        raise NotACall("the <tool_call> names no tool (no name attribute and no JSON call)")
    return [
        CallReading(call.tool, _dumps(call.args), check_arguments(call.tool, call.args, tools))
        for call in calls
    ]


def read_call(element: Element, tools: Mapping[str, Tool] | None = None) -> list[CallReading]:
    """Read the calls of a ``tool_call`` element (one, or several in a Hermes list).

    Args:
        element: The element.
        tools: The known tools by name, to check arguments against; ``None`` checks nothing.

    Raises:
        MalformedCall: The element writes an attribute twice or holds another element.
        NotACall: The element names no tool.
    """
    body = strip_joiners(element.content)
    malformed = _malformed(element, body)
    if malformed is not None:
        raise MalformedCall(malformed)
    name = element.attributes.get("name", "").strip()
    if name:
        return [_named_call(name, body, tools)]
    return _hermes_calls(body, tools)


def read_response(element: Element) -> ResponseReading:
    """Read a ``tool_response`` element."""
    content = compact_json(strip_joiners(element.content))
    name = element.attributes.get("name") or None
    is_error = element.attributes.get("error", "").strip().lower() in _TRUE
    return ResponseReading(name, content, is_error, content == MISSING_RESULT)
