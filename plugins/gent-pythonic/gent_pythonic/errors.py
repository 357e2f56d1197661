"""The errors of the pythonic chain, and the accepted form quoted in their messages."""

from __future__ import annotations

from gent_core.errors import Location, ParseError, TruncatedCallError
from gent_core.textscan import line_column, quote_end

__all__ = ["PYTHON_CALL_FORM", "PythonCallError", "call_error", "cut_off"]

PYTHON_CALL_FORM = (
    "Write each call on its own line as tool_name(argument=value, ...), for example "
    'search(query="weather in Paris", limit=3). Values are literals only: "text" in quotes, '
    "numbers, True, False, None, lists [...] and dicts {...}; nothing is evaluated."
)
"""The accepted form of pythonic calls, appended to every message for the model."""


class PythonCallError(ParseError):
    """The action section holds something that is not a literal-only Python call: a syntax
    error, an expression, a name, a nested call, prose where a call was expected, or no call
    at all. The model message says what was found where (line, column) and what is accepted.
    """


def _location(text: str, offset: int, section: str | None) -> tuple[Location, str]:
    line, column = line_column(text, offset)
    where = f"line {line}, column {column}"
    return Location(section=section, line=line, column=column, offset=offset), where


def call_error(
    text: str, offset: int, problem: str, *, section: str | None, advice: str = ""
) -> PythonCallError:
    """A :class:`PythonCallError` at ``offset`` of ``text``.

    Args:
        text: The text being read (the section's content).
        offset: Where the problem is.
        problem: What was found, as a sentence start (``"call 1 (calculator) has ..."``).
        section: The section name, for the location.
        advice: What to write instead, for the model (a full sentence).
    """
    location, where = _location(text, offset, section)
    model = f"{problem[:1].upper()}{problem[1:]} (at {where})."
    if advice:
        model += f" {advice}"
    return PythonCallError(
        f"{problem} at {where}", location=location, model_message=f"{model}\n{PYTHON_CALL_FORM}"
    )


def cut_off(text: str, offset: int, missing: str, *, section: str | None) -> TruncatedCallError:
    """The error for a call that was cut off.

    ``missing`` says what never came (``"a closing ) is missing"``); ``offset`` is where the
    unfinished call starts.
    """
    location, where = _location(text, offset, section)
    return TruncatedCallError(
        f"tool call cut off: {missing} (the call starting at {where} never ends)",
        location=location,
        model_message=(
            f"Your call was cut off after `{quote_end(text)}` ({missing}); "
            "write the complete call again."
        ),
    )
