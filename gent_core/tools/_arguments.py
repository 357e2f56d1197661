"""Model-facing argument errors, shared by every kind of tool.

A tool's :meth:`~gent_core.tools.Tool.validate_arguments` collects
:class:`ArgumentProblem` objects (one per bad argument) and raises the
:class:`~gent_core.errors.InvalidToolArgumentsError` built by :func:`arguments_error`. Its
``model_message`` names each argument, what was wrong and what is accepted::

    Invalid arguments for tool 'count_words':
    - Argument 'count': expected an integer, got 'seven'.
    - Unknown argument 'colour'. Accepted arguments: text, count.
    Call it as: count_words(text: string, count?: integer = 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from gent_core.errors import InvalidToolArgumentsError, Location

__all__ = [
    "TYPE_WORDS",
    "ArgumentProblem",
    "arguments_error",
    "format_path",
    "merge_alternatives",
    "missing_problem",
    "not_an_object_problem",
    "show_value",
    "unknown_problem",
]

TYPE_WORDS: dict[str, str] = {
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "boolean": "a boolean (true or false)",
    "array": "a list",
    "object": "an object",
    "null": "null",
}
"""How each JSON Schema type is named in messages (``expected an integer``)."""

_MAX_SHOWN = 40


@dataclass(frozen=True)
class ArgumentProblem:
    """One thing wrong with a tool call's arguments.

    Attributes:
        path: The argument's path (``"count"``, ``"options.size"``, ``"items[2]"``), or ``""``
            for a problem with the arguments as a whole.
        message: What was wrong and what is accepted, e.g.
            ``"expected an integer, got 'seven'"``.
    """

    path: str
    message: str

    def render(self) -> str:
        """Return the problem as one sentence for the model."""
        text = f"Argument '{self.path}': {self.message}" if self.path else self.message
        return text if text.endswith(".") else f"{text}."


def show_value(value: Any) -> str:
    """Render a value the model wrote, briefly: ``'seven'``, ``7``, ``true``, ``a list``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        text = repr(value)
    elif isinstance(value, str):
        text = repr(value if len(value) <= _MAX_SHOWN else value[:_MAX_SHOWN] + "...")
    elif isinstance(value, list | tuple):
        return "a list"
    elif isinstance(value, dict):
        return "an object"
    else:
        text = type(value).__name__
    return text if len(text) <= _MAX_SHOWN + 10 else text[:_MAX_SHOWN] + "..."


def format_path(parts: Iterable[str | int]) -> str:
    """Join path parts: names with dots, list indexes in brackets (``items[2].name``)."""
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


def missing_problem(names: Sequence[str], where: str = "") -> ArgumentProblem:
    """The problem for required arguments (or keys of the object at ``where``) not given."""
    quoted = ", ".join(f"'{name}'" for name in names)
    plural = "s" if len(names) > 1 else ""
    if where:
        return ArgumentProblem(where, f"missing required key{plural} {quoted}")
    return ArgumentProblem("", f"Missing required argument{plural} {quoted}")


def unknown_problem(
    names: Sequence[str], accepted: Sequence[str], where: str = ""
) -> ArgumentProblem:
    """The problem for arguments the tool does not accept.

    Args:
        names: The unknown argument names, as written.
        accepted: The names that are accepted at that place.
        where: The path of the object holding them (``""`` for the top level).
    """
    quoted = ", ".join(f"'{name}'" for name in names)
    plural = "s" if len(names) > 1 else ""
    listed = ", ".join(accepted) if accepted else "(none)"
    if not where:
        return ArgumentProblem(
            "", f"Unknown argument{plural} {quoted}. Accepted arguments: {listed}"
        )
    return ArgumentProblem(
        "", f"Unknown key{plural} {quoted} in '{where}'. Accepted keys: {listed}"
    )


def not_an_object_problem(value: Any) -> ArgumentProblem:
    """The problem for arguments that are not a mapping at all."""
    return ArgumentProblem(
        "",
        f"Arguments must be an object mapping argument names to values, got {show_value(value)}",
    )


def merge_alternatives(problems: Iterable[ArgumentProblem]) -> list[ArgumentProblem]:
    """Merge problems about the same argument and value into one alternative.

    Union types fail once per alternative (``expected an integer, got [1]`` and
    ``expected a string, got [1]``); they read better as
    ``expected an integer or a string, got [1]``.
    """
    merged: dict[tuple[str, str], list[str]] = {}
    order: list[tuple[str, str]] = []
    for problem in problems:
        head, sep, got = problem.message.rpartition(", got ")
        if not sep or not head.startswith("expected "):
            head, got = problem.message, ""
        key = (problem.path, got)
        if key not in merged:
            merged[key] = []
            order.append(key)
        if head not in merged[key]:
            merged[key].append(head)
    result: list[ArgumentProblem] = []
    for path, got in order:
        heads = merged[(path, got)]
        expected = [heads[0]] + [head.removeprefix("expected ") for head in heads[1:]]
        text = " or ".join(expected)
        result.append(ArgumentProblem(path, f"{text}, got {got}" if got else text))
    return result


def arguments_error(
    tool_name: str, problems: Sequence[ArgumentProblem], *, signature: str | None = None
) -> InvalidToolArgumentsError:
    """Build the error for a call whose arguments have ``problems``.

    Args:
        tool_name: The tool's name.
        problems: What was wrong (at least one).
        signature: A compact signature of the tool, shown as ``Call it as: ...``.
    """
    sentences = [problem.render() for problem in problems]
    if len(sentences) == 1:
        model_message = f"Invalid arguments for tool '{tool_name}': {sentences[0]}"
    else:
        listed = "\n".join(f"- {sentence}" for sentence in sentences)
        model_message = f"Invalid arguments for tool '{tool_name}':\n{listed}"
    return InvalidToolArgumentsError(
        f"invalid arguments for tool {tool_name!r}: " + " ".join(sentences),
        location=Location(tool=tool_name),
        model_message=model_message,
        hint=f"Call it as: {signature}" if signature else None,
    )
