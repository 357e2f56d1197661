r"""Turn parsed values (from JSON or YAML) into :class:`~gent_core.toolchain.ToolCall` objects.

A call is a mapping with the tool's name under ``tool`` (or ``name``) and its arguments under
``args`` (or ``arguments`` or ``parameters``); the arguments may also be a JSON object written
as a string (``"arguments": "{\"q\": \"x\"}"``, as OpenAI-style models do), and the
OpenAI wrapper ``{"type": "function", "function": {...}}`` is unwrapped. Keys ``id`` and
``type`` are ignored. A call without an arguments key takes no arguments; other keys are then
an error (the model probably meant them as arguments, which is not guessed).

Arguments must respect the bounds of every gent value (:func:`gent_core.bounds.check_value`:
at most 100 levels of nesting, integers of at most 4,300 digits, no ``NaN`` or infinity);
a call that does not is malformed, so the model is told and nothing runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gent_core.bounds import ValueBoundsError, check_value
from gent_core.errors import Location, MissingToolNameError, ParseError
from gent_core.textscan import quote_start
from gent_core.toolchain import ToolCall
from gent_json.lenient import JSON_CALL_FORM, parse_json_value
from gent_json.tolerant import TolerantJSONError

__all__ = [
    "ARGUMENT_KEYS",
    "CallSyntax",
    "JSON_SYNTAX",
    "NAME_KEYS",
    "calls_from_values",
    "normalize_call",
]

NAME_KEYS = ("tool", "name")
"""Keys that may hold the tool name, in order of preference."""

ARGUMENT_KEYS = ("args", "arguments", "parameters")
"""Keys that may hold the arguments."""

_IGNORED_KEYS = frozenset({"id", "type"})


@dataclass(frozen=True)
class CallSyntax:
    """How a call language reports structural errors.

    Attributes:
        error: The error raised for a malformed call (``InvalidJSONError``...).
        form: The accepted form, appended to model messages.
    """

    error: type[ParseError]
    form: str


def _json_syntax() -> CallSyntax:
    from gent_core.errors import InvalidJSONError

    return CallSyntax(InvalidJSONError, JSON_CALL_FORM)


JSON_SYNTAX = _json_syntax()
"""The syntax of JSON calls."""


def _describe(value: Any) -> str:
    return quote_start(repr(value) if not isinstance(value, str) else value)


def _fail(syntax: CallSyntax, number: int, problem: str, section: str | None) -> ParseError:
    return syntax.error(
        f"call {number}: {problem}",
        location=Location(section=section),
        model_message=f"Call {number} is malformed: {problem}.\n{syntax.form}",
    )


def _name_of(call: Mapping[str, Any], number: int, syntax: CallSyntax, section: str | None) -> str:
    present = [key for key in NAME_KEYS if key in call]
    if not present:
        keys = ", ".join(str(key) for key in call) or "nothing"
        raise MissingToolNameError(
            f"call {number} has no 'tool' field (keys: {keys})",
            location=Location(section=section),
            model_message=(
                f'Call {number} has no "tool" field naming the tool to call (it has: {keys}).'
                f"\n{syntax.form}"
            ),
        )
    if len(present) > 1 and call["tool"] != call["name"]:
        raise _fail(
            syntax,
            number,
            f'it has both "tool" ({_describe(call["tool"])}) and "name" '
            f'({_describe(call["name"])}); name the tool once with "tool" and put the '
            'arguments under "args"',
            section,
        )
    name = call[present[0]]
    if not isinstance(name, str) or not name.strip():
        raise MissingToolNameError(
            f"call {number}: the tool name must be a non-empty string, got {name!r}",
            location=Location(section=section),
            model_message=(
                f'Call {number}: "{present[0]}" must be the tool\'s name as a string, '
                f"not {_describe(name)}.\n{syntax.form}"
            ),
        )
    return name.strip()


def _arguments_of(
    call: Mapping[str, Any], number: int, syntax: CallSyntax, section: str | None
) -> dict[str, Any]:
    present = [key for key in ARGUMENT_KEYS if key in call]
    if len(present) > 1:
        listed = " and ".join(f'"{key}"' for key in present)
        raise _fail(syntax, number, f"it has both {listed}; give the arguments once", section)
    if not present:
        extra = [str(key) for key in call if key not in NAME_KEYS and key not in _IGNORED_KEYS]
        if extra:
            listed = ", ".join(f'"{key}"' for key in extra)
            raise _fail(
                syntax,
                number,
                f'it has {listed} next to the tool name; put the arguments under "args"',
                section,
            )
        return {}
    key = present[0]
    raw = call[key]
    if raw is None:
        return {}
    if isinstance(raw, str):
        try:
            raw = parse_json_value(raw) if raw.strip() else {}
        except TolerantJSONError:
            raise _fail(
                syntax,
                number,
                f'"{key}" is a string that is not a JSON object: `{quote_start(raw)}`',
                section,
            ) from None
    if not isinstance(raw, Mapping):
        raise _fail(
            syntax,
            number,
            f'"{key}" must be an object of named arguments, not {_describe(raw)}',
            section,
        )
    arguments = {str(name): value for name, value in raw.items()}
    try:
        check_value(arguments, name=key)
    except ValueBoundsError as error:
        raise _fail(syntax, number, error.problem, section) from None
    return arguments


def normalize_call(
    call: Mapping[str, Any],
    number: int,
    *,
    syntax: CallSyntax = JSON_SYNTAX,
    section: str | None = None,
) -> tuple[str, dict[str, Any]]:
    """Return the tool name and arguments of one parsed call.

    Args:
        call: The parsed mapping.
        number: The call's 1-based position (for messages).
        syntax: The call language (error type and accepted form).
        section: The section name, for error locations.

    Raises:
        MissingToolNameError: No tool name, or not a string.
        ParseError: The ``syntax.error`` type for any other malformed call, including
            arguments beyond the value bounds (too deep, a too-large integer, ``NaN``).
    """
    function = call.get("function")
    if isinstance(function, Mapping) and not any(key in call for key in NAME_KEYS):
        call = function
    return _name_of(call, number, syntax, section), _arguments_of(call, number, syntax, section)


def calls_from_values(
    values: Sequence[Any],
    *,
    syntax: CallSyntax = JSON_SYNTAX,
    section: str | None = None,
) -> list[ToolCall]:
    """Turn parsed values (each a call mapping or a list of them) into calls ``call_0``...

    Raises:
        MissingToolNameError: A call has no tool name.
        ParseError: The ``syntax.error`` type when a value is neither a call nor a list of
            calls, or a call is malformed.
    """
    calls: list[ToolCall] = []
    for value in values:
        items = value if isinstance(value, list) else [value]
        for item in items:
            number = len(calls) + 1
            if not isinstance(item, Mapping):
                raise _fail(
                    syntax, number, f"expected a call object, got {_describe(item)}", section
                )
            name, arguments = normalize_call(item, number, syntax=syntax, section=section)
            calls.append(ToolCall(name, arguments, f"call_{len(calls)}"))
    return calls
