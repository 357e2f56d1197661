r"""Values crossing into and out of the history database: made storable on the way in,
checked on the way out.

* :func:`storable` is the one place a value becomes a SQLite parameter: every statement the
  store runs binds its parameters through :func:`bind`. A lone surrogate (an undecodable
  byte of a command's argument: ``gent logs -q $'\xff'``), which UTF-8 cannot encode,
  becomes U+FFFD, as it did when the run was logged; an integer beyond SQLite's 64 bits is
  saturated at the nearest end of that range (a count of runs that large means "all").
* :func:`run_summary` reads one row of ``runs`` and :func:`read_record` one row of
  ``records``, refusing what gent never writes (a step count that is text, a record nested
  past the transcripts' bound, a column holding bytes that are not UTF-8) with a
  :class:`DamagedRow` naming the run and what is wrong: a database edited by hand, or damaged,
  gives one line, never a traceback.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from gent_core.bounds import OUTPUT_MAX_DEPTH, read_json
from gent_core.errors import InputError
from gent_history.errors import DamagedRow

__all__ = [
    "INTEGER_RANGE",
    "SUMMARY_COLUMNS",
    "RunSummary",
    "bind",
    "decode_text",
    "read_record",
    "run_summary",
    "storable",
]

INTEGER_RANGE = (-(2**63), 2**63 - 1)
"""The integers SQLite stores (64-bit, signed)."""

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_SHOWN = 40
"""How many characters of a damaged value a message shows."""


def storable(value: Any) -> Any:
    """``value`` as a SQLite parameter (see the module docstring); other values as they are."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, int) and not isinstance(value, bool):
        low, high = INTEGER_RANGE
        return min(max(value, low), high)
    return value


def bind(parameters: Iterable[Any]) -> tuple[Any, ...]:
    """Every parameter of one statement made :func:`storable`."""
    return tuple(storable(value) for value in parameters)


class _Undecodable(bytes):
    """A text column's bytes that are not UTF-8 (a damaged row), kept to be named."""


def decode_text(data: bytes) -> str:
    """The connection's ``text_factory``: UTF-8 text, or the bytes marked undecodable (the
    row checks then name the column) instead of failing the whole query.
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return _Undecodable(data)  # type: ignore[return-value]  # checked by run_summary


def _shown(value: Any) -> str:
    if isinstance(value, _Undecodable):
        return "bytes that are not UTF-8 text"
    text = repr(value)
    if len(text) > _SHOWN:
        text = text[: _SHOWN - 3] + "..."
    return f"{text} ({type(value).__name__})"


@dataclass
class RunSummary:
    """One logged run, as ``gent logs`` lists it.

    Attributes:
        id: The run's id (a ULID).
        conversation_id: The conversation the run belongs to (its first run's id).
        started: When it started (ISO 8601, UTC).
        task: The task as given.
        answer: The answer as text (JSON for a typed answer); ``None`` without one.
        stop_reason: Why it ended (``answer`` is success); ``None`` while running or when
            the process was stopped before the end.
        message: The run's closing message.
        config_name: The configuration's file, or ``built-in``.
        steps: Completed steps.
        input_tokens: Tokens sent, ``None`` when the back end reported none.
        output_tokens: Tokens generated, ``None`` when the back end reported none.
        seconds: Wall time of the run.
        resumed_from: The run this one resumed, if any.
    """

    id: str
    conversation_id: str
    started: str
    task: str
    answer: str | None
    stop_reason: str | None
    message: str | None
    config_name: str
    steps: int
    input_tokens: int | None
    output_tokens: int | None
    seconds: float | None
    resumed_from: str | None

    @property
    def ok(self) -> bool:
        """Whether the run answered."""
        return self.stop_reason == "answer"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (``tokens_reported`` says whether token counts exist)."""
        data = asdict(self)
        data["tokens_reported"] = self.input_tokens is not None or self.output_tokens is not None
        return data


SUMMARY_COLUMNS = (
    "id, conversation_id, started, task, answer, stop_reason, message, config_name, steps, "
    "input_tokens, output_tokens, seconds, resumed_from"
)
"""The columns of ``runs`` that make a :class:`RunSummary`, in its order."""

# What each column must hold: (accepted types, None allowed, how to say it).
_TEXT = ((str,), False, "text")
_TEXT_OR_NULL = ((str,), True, "text or NULL")
_WHOLE = ((int,), False, "a whole number")
_WHOLE_OR_NULL = ((int,), True, "a whole number or NULL")
_KINDS: tuple[tuple[tuple[type, ...], bool, str], ...] = (
    _TEXT,  # id
    _TEXT,  # conversation_id
    _TEXT,  # started
    _TEXT,  # task
    _TEXT_OR_NULL,  # answer
    _TEXT_OR_NULL,  # stop_reason
    _TEXT_OR_NULL,  # message
    _TEXT,  # config_name
    _WHOLE,  # steps
    _WHOLE_OR_NULL,  # input_tokens
    _WHOLE_OR_NULL,  # output_tokens
    ((int, float), True, "a number of seconds or NULL"),  # seconds
    _TEXT_OR_NULL,  # resumed_from
)
_NAMES = tuple(name.strip() for name in SUMMARY_COLUMNS.split(","))


def _fits(value: Any, kind: tuple[tuple[type, ...], bool, str]) -> bool:
    types, nullable, _ = kind
    if value is None:
        return nullable
    return isinstance(value, types) and not isinstance(value, _Undecodable | bool)


def run_summary(row: Sequence[Any]) -> RunSummary:
    """One row of ``runs`` (:data:`SUMMARY_COLUMNS`) as a :class:`RunSummary`.

    Raises:
        DamagedRow: A column holds what gent never writes there, naming the run and column.
    """
    run_id = row[0] if _fits(row[0], _TEXT) else None
    for name, value, kind in zip(_NAMES, row, _KINDS, strict=True):
        if not _fits(value, kind):
            which = f"the logged run {run_id}" if run_id else "a logged run"
            raise DamagedRow(
                f"{which} is damaged: its {name} is {_shown(value)}, not {kind[2]}",
                hint="gent never writes that; the database was edited or damaged.",
            )
    values = list(row)
    if values[11] is not None:
        values[11] = float(values[11])
    return RunSummary(*values)


def read_record(run_id: str, seq: Any, data: Any) -> dict[str, Any]:
    """One row of ``records`` as the transcript line it holds, read with the bounds of a
    transcript line (:func:`~gent_core.bounds.read_json`).

    Raises:
        DamagedRow: Not text, not JSON, beyond the bounds, or not a JSON object.
    """
    where = f"record {seq} of the logged run {run_id} is damaged"
    if not isinstance(data, str):  # bytes, undecodable text, a number
        raise DamagedRow(f"{where}: its data is {_shown(data)}, not JSON text")
    try:
        record = read_json(data, source="the record", max_depth=OUTPUT_MAX_DEPTH)
    except InputError as error:
        raise DamagedRow(f"{where}: {error.problem}") from None
    if not isinstance(record, dict):
        raise DamagedRow(f"{where}: not a JSON object but {type(record).__name__}")
    return record
