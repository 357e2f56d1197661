"""Values as JSON: the bounds every value must respect, and one writer that cannot fail.

gent moves values between a model, tools and people: call arguments, tool outputs and typed
answers. Every value obeys one set of bounds, checked where it *enters* and guaranteed where
it *leaves*:

* :data:`MAX_DEPTH`: at most 100 nested objects/lists;
* :data:`MAX_INT_DIGITS`: integers of at most 4,300 decimal digits (Python's own limit for
  turning an integer into text);
* numbers are finite: ``NaN`` and ``Infinity`` are not JSON.

**Where values enter**, :func:`check_value` raises :class:`ValueBoundsError` naming the first
offending place (``args.items[3]``); the call readers and the agent loop turn that into a
parse error the model reads. **Where values leave** (the live view, ``gent run --json``,
transcripts, ``gent parse``), :func:`write_json` writes *strict* JSON and never raises: it goes
through :func:`to_json_data`, which writes what JSON cannot hold as text (``"NaN"``,
``"Infinity"``, a placeholder for a too-large integer or a too-deep branch) and converts
pydantic models, dataclasses, dates, paths, sets, enums, decimals, UUIDs and bytes.

:func:`json_default` is the ``default=`` hook for :func:`json.dumps`; :func:`to_jsonable`
converts a whole value recursively (for formats such as YAML that have no such hook) and
refuses data nested deeper than :data:`MAX_DEPTH`.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime as dt
import enum
import json
import math
import re
import uuid
from collections.abc import Callable, Mapping
from decimal import Decimal
from pathlib import PurePath
from typing import Any

__all__ = [
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "OUTPUT_MAX_DEPTH",
    "ValueBoundsError",
    "check_value",
    "dumps_json",
    "json_default",
    "to_json_data",
    "to_jsonable",
    "write_json",
]

MAX_DEPTH = 100
"""Deepest nesting of objects and lists in a value (call arguments, tool outputs, answers).

Parsers refuse deeper values as a parse error for the model; :func:`to_jsonable` refuses
them too (deeper data is probably cyclic)."""

MAX_INT_DIGITS = 4300
"""Most decimal digits of an integer (Python's default limit for ``str(int)``)."""

OUTPUT_MAX_DEPTH = 2 * MAX_DEPTH
"""Deepest nesting :func:`to_json_data` writes: room for a record (a step, a run) holding
values of up to :data:`MAX_DEPTH` levels. Anything deeper is written as a placeholder."""

_INT_LIMIT: int = 10**MAX_INT_DIGITS  # the smallest integer with MAX_INT_DIGITS + 1 digits
_LOG10_2 = math.log10(2)

# Characters json.dumps(ensure_ascii=False) leaves raw although they are unsafe to print or
# not encodable: DEL and the C1 controls (a terminal may read U+009B as an escape sequence),
# the Unicode line separators, bidirectional overrides, and lone surrogates (which no UTF-8
# stream can carry). Written as \uXXXX escapes, the JSON text stays equal in meaning.
_UNSAFE_IN_JSON = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


class ValueBoundsError(ValueError):
    """A value that JSON or gent's bounds cannot hold.

    Attributes:
        problem: What is wrong, in words for the model (``"args.x is NaN, which JSON cannot
            hold; ..."``).
        path: Where, as keys and list indexes from the checked value.
    """

    def __init__(self, problem: str, path: tuple[str | int, ...] = ()) -> None:
        super().__init__(problem)
        self.problem = problem
        self.path = path


def _sorted_if_possible(values: set[Any] | frozenset[Any]) -> list[Any]:
    try:
        return sorted(values)
    except TypeError:
        return list(values)


def json_default(value: Any) -> Any:
    """Return a JSON-ready stand-in for ``value`` (the ``default=`` of :func:`json.dumps`).

    Pydantic models give ``model_dump(mode="json")``; dataclasses a dict of their fields;
    dates, times and datetimes their ISO 8601 form; durations their seconds; paths, UUIDs and
    decimals their text; sets a (sorted when possible) list; enums their value; bytes their
    UTF-8 text, or base64 when they are not text; anything else ``str(value)``.
    """
    model_dump = getattr(type(value), "model_dump", None)
    if model_dump is not None and callable(model_dump):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: getattr(value, field.name) for field in dataclasses.fields(value)}
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, (set, frozenset)):
        return _sorted_if_possible(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (PurePath, uuid.UUID, Decimal)):
        return str(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        raw = bytes(value)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return base64.b64encode(raw).decode("ascii")
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (list, tuple)):
        return list(value)
    return str(value)


def to_jsonable(value: Any, _depth: int = 0) -> Any:
    """Return ``value`` as plain JSON data: dicts with string keys, lists, and scalars.

    Floats are kept as they are (``NaN`` included): this is for writing a tool's output for
    the model. Output that must be strict JSON goes through :func:`to_json_data`.

    Raises:
        ValueBoundsError: When the data nests deeper than :data:`MAX_DEPTH` (likely a cycle).
    """
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if _depth >= MAX_DEPTH:
        raise ValueBoundsError(f"output nests deeper than {MAX_DEPTH} levels (is it cyclic?)")
    if isinstance(value, dict):
        return {_safe_key(key): to_jsonable(item, _depth + 1) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(item, _depth + 1) for item in value]
    converted = json_default(value)
    if _is_scalar(converted) or isinstance(converted, (dict, list)):
        return to_jsonable(converted, _depth)
    return str(value)


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, bool, int, float))


def _int_digits(value: int) -> int:
    """About how many decimal digits ``value`` has (exact to within one)."""
    return int(abs(value).bit_length() * _LOG10_2) + 1


def _too_large(value: int) -> bool:
    return value >= _INT_LIMIT or value <= -_INT_LIMIT


def to_json_data(
    value: Any,
    *,
    max_depth: int = OUTPUT_MAX_DEPTH,
    redact: Callable[[str], str] | None = None,
) -> Any:
    """Return ``value`` as data that :func:`json.dumps` writes as strict JSON; never raises.

    Objects are converted as :func:`json_default` says. What strict JSON cannot hold is
    written as text: ``NaN``, ``Infinity`` and ``-Infinity`` as those strings, an integer of
    more than :data:`MAX_INT_DIGITS` digits as ``"<integer of about N digits>"``, and a
    branch nested deeper than ``max_depth`` (cyclic data, say) as
    ``"<nested deeper than N levels>"``.

    Args:
        value: Anything.
        max_depth: Most nested objects/lists written.
        redact: Applied to every string value (e.g. to mask secrets); never to a mapping key,
            and never changing the structure.
    """
    return _Converter(max_depth, redact).data(value, 0)


class _Converter:
    def __init__(self, max_depth: int, redact: Callable[[str], str] | None) -> None:
        self.max_depth = max_depth
        self.redact = redact

    def text(self, value: str) -> str:
        plain = value if type(value) is str else str.__str__(value)
        return plain if self.redact is None else self.redact(plain)

    def data(self, value: Any, depth: int) -> Any:
        if value is None or value is True or value is False:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, int):
            if _too_large(value):
                return f"<integer of about {_int_digits(value)} digits>"
            return int(value)
        if isinstance(value, float):
            if math.isnan(value):
                return "NaN"
            if math.isinf(value):
                return "Infinity" if value > 0 else "-Infinity"
            return float(value)
        if depth >= self.max_depth:
            return f"<nested deeper than {self.max_depth} levels>"
        if isinstance(value, dict):
            return {self.key(key): self.data(item, depth + 1) for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.data(item, depth + 1) for item in value]
        try:
            converted = json_default(value)
        except Exception as error:  # noqa: BLE001 - a broken __str__/model_dump is still written
            return f"<{type(value).__name__} that cannot be written: {type(error).__name__}>"
        if _is_scalar(converted) or isinstance(converted, (dict, list)):
            return self.data(converted, depth)
        return self.text(_safe_str(value))

    def key(self, key: Any) -> str:
        """A mapping key as text: never redacted (a key is structure, not a value)."""
        return _safe_key(key)


def _safe_str(value: Any) -> str:
    try:
        return str(value)
    except Exception as error:  # noqa: BLE001 - written as a placeholder instead
        return f"<{type(value).__name__} that cannot be written: {type(error).__name__}>"


def _safe_key(key: Any) -> str:
    """A dict key as text (keys of tool outputs may be anything hashable)."""
    if isinstance(key, str):
        return str.__str__(key)
    if key is None or isinstance(key, (bool, int, float)):
        data = _Converter(1, None).data(key, 0)
        return data if isinstance(data, str) else json.dumps(data)
    try:
        converted = json_default(key)
    except Exception:  # noqa: BLE001 - a key that cannot be converted is written by str()
        converted = None
    return converted if isinstance(converted, str) else _safe_str(key)


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def write_json(
    value: Any, *, indent: int | None = None, redact: Callable[[str], str] | None = None
) -> str:
    r"""Write ``value`` as strict JSON text (RFC 8259); never raises.

    The value goes through :func:`to_json_data` first; non-ASCII text is kept, except the
    characters that are unsafe on a terminal or not encodable (DEL, C1 controls, line
    separators, bidirectional overrides, lone surrogates), which are written as ``\uXXXX``
    escapes. Every ``gent`` output that is JSON (``--json``, transcripts, ``gent parse``)
    is written by this function.

    Args:
        value: Anything.
        indent: Indentation, or ``None`` for one line.
        redact: Applied to every string value (e.g. to mask secrets); never to a mapping key,
            and never changing the structure.
    """
    data = to_json_data(value, redact=redact)
    text = json.dumps(data, ensure_ascii=False, indent=indent, allow_nan=False)
    return _UNSAFE_IN_JSON.sub(_escape, text)


def dumps_json(value: Any, *, indent: int | None = None) -> str:
    """Write ``value`` as JSON text for the model (non-ASCII kept), converting with
    :func:`json_default`.

    Raises:
        ValueError: When ``value`` cannot be written (an integer too large to write as text,
            data nested too deeply); a tool chain turns that into an error result.
    """
    return json.dumps(value, ensure_ascii=False, indent=indent, default=json_default)


def check_value(
    value: Any,
    *,
    max_depth: int = MAX_DEPTH,
    allow_non_finite: bool = False,
    convert: bool = False,
    name: str = "",
) -> None:
    """Check that ``value`` respects the bounds of every gent value; walk it without recursion.

    Dicts, lists and tuples are walked; with ``convert``, other objects (pydantic models,
    dataclasses, sets...) are converted by :func:`json_default` and walked too, else they are
    leaves.

    Long because it is one loop over one stack, run on every call's arguments and every tool
    output: each kind of value is a branch of it, with no call per value.

    Args:
        value: The value (call arguments, a tool's output, an answer).
        max_depth: Most nested dicts/lists/tuples.
        allow_non_finite: Accept ``NaN`` and infinities (a tool may compute them; the output
            writers write them as text).
        convert: Walk into objects as they would be written.
        name: How to call the value in messages (``"args"``); paths start with it.

    Raises:
        ValueBoundsError: Naming the first offending place and what is accepted.
    """
    # (value, depth, parent entry, key): paths are rebuilt only when something is wrong
    stack: list[tuple[Any, int, Any, str | int | None]] = [(value, 0, None, None)]
    while stack:
        entry = stack.pop()
        item, depth = entry[0], entry[1]
        if isinstance(item, bool) or item is None or isinstance(item, str):
            continue
        if isinstance(item, int):
            if _too_large(item):
                raise _bounds(
                    entry,
                    name,
                    f"is an integer of about {_int_digits(item)} digits; at most "
                    f"{MAX_INT_DIGITS} digits are accepted (write it as a string)",
                )
        elif isinstance(item, float):
            if not allow_non_finite and not math.isfinite(item):
                shown = "NaN" if math.isnan(item) else ("Infinity" if item > 0 else "-Infinity")
                raise _bounds(
                    entry,
                    name,
                    f"is {shown}, which is not a JSON number (write a finite number, or the "
                    f'text "{shown}" as a string)',
                )
        elif isinstance(item, (dict, list, tuple)):
            if depth >= max_depth:
                raise _bounds(entry, name, f"nests more than {max_depth} levels deep", nested=True)
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            stack.extend((child, depth + 1, entry, key) for key, child in reversed(list(pairs)))
        elif convert:
            try:
                converted = json_default(item)
            except Exception:  # noqa: BLE001 - the writers show it as a placeholder
                continue
            if isinstance(converted, (dict, list)):
                stack.append((converted, depth, entry[2], entry[3]))


def _bounds(entry: Any, name: str, problem: str, *, nested: bool = False) -> ValueBoundsError:
    path: list[str | int] = []
    while entry is not None and entry[3] is not None:
        path.append(entry[3])
        entry = entry[2]
    path.reverse()
    if nested:
        path = path[:3]  # the start of the deep branch is enough
    where = _path_text(name, path)
    if nested:
        subject = f"the value at {where}" if path else (name or "the value")
        return ValueBoundsError(f"{subject} {problem}", tuple(path))
    return ValueBoundsError(f"{where or 'the value'} {problem}", tuple(path))


def _path_text(name: str, path: list[str | int]) -> str:
    text = name
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text
