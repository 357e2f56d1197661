"""Read the JSON values a model wrote in free text, leniently but without guessing.

:func:`find_json_values` accepts what real models write: code fences, prose before and after
(even prose holding ``{`` or ``}``), several values one after another, and the tolerant
syntax of :mod:`gent_json.tolerant` (single quotes, ``True``/``False``/``None``,
trailing commas, raw newlines in strings). It refuses what it cannot read with certainty:

* a value that was **cut off** (an opener never closed, a string never terminated) raises
  :class:`~gent_core.errors.TruncatedCallError`; it is never closed automatically;
* a value that looks like JSON but does not parse raises
  :class:`~gent_core.errors.InvalidJSONError` quoting where it went wrong.

A bracket span "looks like JSON" when a ``{`` is followed by a quote or ``}``, or a ``[`` by
``{``, ``[``, a quote or ``]``; other spans (``{x}``, ``[1]`` in prose) are prose. A prose
span is not a value, but the spans nested in it are still considered.
"""

from __future__ import annotations

import json
from typing import Any

from gent_core.errors import InvalidJSONError, Location, TruncatedCallError
from gent_core.textscan import line_column, quote_end, snippet_at
from gent_json.spans import Span, scan
from gent_json.tolerant import TolerantJSONError
from gent_json.tolerant import loads as tolerant_loads

__all__ = ["JSON_CALL_FORM", "find_json_values", "parse_json_value"]

JSON_CALL_FORM = (
    'Write one call as {"tool": "<tool name>", "args": {<arguments>}}, or several calls as a '
    'list: [{"tool": "...", "args": {...}}, {"tool": "...", "args": {...}}].'
)
"""The accepted form of JSON calls, quoted in error messages for the model."""

_SPACE = " \t\r\n"
_AFTER_BRACE = frozenset("\"'}")
_AFTER_BRACKET = frozenset("\"'{[]")


def parse_json_value(text: str) -> Any:
    """Parse ``text`` as one JSON value: strict JSON first, then the tolerant parser.

    Raises:
        TolerantJSONError: When neither accepts it (the tolerant parser's reason and offset).
    """
    try:
        return json.loads(text, strict=False)
    except (ValueError, RecursionError):
        return tolerant_loads(text)


def _looks_like_json(text: str, opener: int) -> bool:
    index = opener + 1
    while index < len(text) and text[index] in _SPACE:
        index += 1
    if index >= len(text):
        return True  # an opener at the very end: a call that was cut off
    follow = _AFTER_BRACE if text[opener] == "{" else _AFTER_BRACKET
    return text[index] in follow


def _location(text: str, offset: int, section: str | None) -> Location:
    line, column = line_column(text, offset)
    return Location(section=section, line=line, column=column, offset=offset)


def _candidates(text: str, spans: tuple[Span, ...]) -> list[Span]:
    """The JSON-looking spans, outermost first, descending into prose spans."""
    found: list[Span] = []
    pending = list(reversed(spans))
    while pending:
        span = pending.pop()
        if _looks_like_json(text, span.start):
            found.append(span)
        else:
            pending.extend(reversed(span.children))
    return found


def _truncated(text: str, opener: int, open_string: bool, section: str | None) -> Exception:
    missing = "a string is not closed" if open_string else "a closing } or ] is missing"
    return TruncatedCallError(
        f"tool call cut off: {missing} (the JSON starting at offset {opener} never ends)",
        location=_location(text, opener, section),
        model_message=(
            f"Your call was cut off after `{quote_end(text)}` ({missing}); "
            "write the complete call again."
        ),
    )


def find_json_values(text: str, *, section: str | None = None) -> list[tuple[Any, int]]:
    """Return every JSON value written in ``text`` with its offset, in order.

    Args:
        text: The section's content.
        section: The section name, for error locations.

    Returns:
        ``(value, offset)`` pairs; each value is a dict or a list. Empty when ``text`` holds
        no JSON-looking span at all (prose only, or nothing).

    Raises:
        TruncatedCallError: A JSON value was cut off.
        InvalidJSONError: A JSON-looking span does not parse even tolerantly.
    """
    stripped = text.strip()
    if stripped[:1] in ("{", "[") and stripped[-1:] in ("}", "]"):
        try:  # fast path: the whole text is strict JSON
            whole = json.loads(stripped, strict=False)
        except (ValueError, RecursionError):
            pass
        else:
            if isinstance(whole, (dict, list)):
                return [(whole, text.index(stripped[0]))]
    found = scan(text)
    for opener in found.unclosed:
        if _looks_like_json(text, opener):
            raise _truncated(text, opener, found.open_string is not None, section)
    values: list[tuple[Any, int]] = []
    for span in _candidates(text, found.spans):
        source = text[span.start : span.end]
        try:
            value = parse_json_value(source)
        except TolerantJSONError as error:
            offset = span.start + error.offset
            line, column = line_column(text, offset)
            raise InvalidJSONError(
                f"invalid JSON at line {line}, column {column}: {error.reason}",
                location=_location(text, offset, section),
                model_message=(
                    f"Your call is not valid JSON: {error.reason} at line {line}, column "
                    f"{column}, near `{snippet_at(text, offset)}`.\n{JSON_CALL_FORM}"
                ),
            ) from error
        values.append((value, span.start))
    return values
