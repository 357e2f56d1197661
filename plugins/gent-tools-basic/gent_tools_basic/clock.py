"""The ``current_time`` tool: the current date and time, in any IANA time zone."""

from __future__ import annotations

import difflib
import functools
import importlib.resources
import unicodedata
from datetime import datetime
from typing import Annotated
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from pydantic import Field

from gent_core.errors import Location, ToolExecutionError
from gent_core.tools import ToolExample, tool

__all__ = ["EXAMPLES", "UnknownTimeZoneError", "current_time", "reading"]

_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_EXAMPLES = "'Europe/Paris', 'America/New_York', 'Asia/Tokyo' or 'UTC'"
_MAX_ZONE_LENGTH = 64
_NOT_ZONES = frozenset({"localtime", "posixrules", "Factory"})  # files in some zoneinfo dirs


class UnknownTimeZoneError(ToolExecutionError):
    """The time zone the model asked for does not exist.

    Args:
        zone: The zone as written.
        suggestions: Close existing zone names.
    """

    def __init__(self, zone: str, suggestions: list[str]) -> None:
        self.zone = zone
        self.suggestions = suggestions
        message = f"Unknown time zone {zone[:_MAX_ZONE_LENGTH]!r}."
        if suggestions:
            message += " Did you mean " + " or ".join(f"'{name}'" for name in suggestions) + "?"
        super().__init__(
            message,
            location=Location(tool="current_time"),
            hint=f"Write an IANA time zone name (Area/City) such as {_EXAMPLES}.",
        )


def _zone_names() -> list[str]:
    return sorted(available_timezones() - _NOT_ZONES)


def _plain(text: str) -> str:
    """``text`` lower-cased without accents, spaces, underscores or hyphens, the way names are
    compared (``"São Paulo"``, ``"Sao_Paulo"`` and ``"saopaulo"`` are the same name).
    """
    decomposed = unicodedata.normalize("NFKD", text.strip().lower())
    return "".join(char for char in decomposed if char.isalnum() or char in "/+")


def _city(zone: str) -> str:
    """The city part of a zone name, compared plainly (``"New York"`` -> ``newyork``)."""
    return _plain(zone).rsplit("/", 1)[-1]


@functools.cache
def _countries() -> dict[str, list[str]]:
    """Country names (plain) and the zones each has, from the tz database's own tables
    (``iso3166.tab``, ``zone1970.tab``, shipped by the ``tzdata`` package); empty when they
    cannot be read.
    """
    try:
        tables = importlib.resources.files("tzdata") / "zoneinfo"
        codes = (tables / "iso3166.tab").read_text(encoding="utf-8")
        zones = (tables / "zone1970.tab").read_text(encoding="utf-8")
    except (ImportError, OSError):
        return {}
    by_code: dict[str, list[str]] = {}
    for line in zones.splitlines():
        fields = line.split("\t")
        if len(fields) >= 3 and not line.startswith("#"):
            for code in fields[0].split(","):
                by_code.setdefault(code, []).append(fields[2])
    countries: dict[str, list[str]] = {}
    for line in codes.splitlines():
        fields = line.split("\t")
        if len(fields) == 2 and not line.startswith("#"):
            countries[_plain(fields[1])] = by_code.get(fields[0], [])
    return countries


def _named(zone: str, names: list[str]) -> list[str]:
    """The zones ``zone`` names: as written in another case or spacing; else those of the city
    it names; else those of the country it names (its last part, ``"Asia/India"`` -> India's).
    """
    wanted = _plain(zone)
    by_case = [name for name in names if _plain(name) == wanted]
    if by_case:
        return by_case
    by_city = [name for name in names if _city(name) == _city(zone)]
    return by_city or list(_countries().get(_city(zone), []))


def _suggestions(zone: str, names: list[str], named: list[str]) -> list[str]:
    """Existing zone names close to ``zone``: those it names (``named``, from :func:`_named`)
    first; only those when it names them but for spelling.
    """
    if named and _plain(named[0]) == _plain(zone):
        return named
    close = difflib.get_close_matches(zone, names, n=3, cutoff=0.6)
    return list(dict.fromkeys(named + close))[:3]


def _resolve(name: str) -> str:
    """The IANA zone ``name`` means: itself when it exists; else the one zone whose name
    differs only in case, spacing or accents, or whose city is the one named (``"Tokyo"``,
    ``"Europe/Tokyo"`` -> ``Asia/Tokyo``, ``"new york"`` -> ``America/New_York``,
    ``"America/SaoPaulo"`` -> ``America/Sao_Paulo``), or the one zone of the country named
    (``"India"`` -> ``Asia/Kolkata``; a country with several zones is not guessed).

    Raises:
        UnknownTimeZoneError: No zone, or several, fit; with the closest names.
    """
    if len(name) > _MAX_ZONE_LENGTH:
        names, cut = _zone_names(), name[:_MAX_ZONE_LENGTH]
        raise UnknownTimeZoneError(name, _suggestions(cut, names, _named(cut, names)))
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        names = _zone_names()
        named = _named(name, names)
        if len(named) == 1:
            return named[0]
        raise UnknownTimeZoneError(name, _suggestions(name, names, named)) from None
    return name


def reading(now: datetime, zone_name: str) -> dict[str, str]:
    """What :func:`current_time` returns for the moment ``now`` (an aware datetime) in the
    zone called ``zone_name``: the time (hours and minutes), the weekday and the date as a
    person says them ("11:30 on Wednesday, 2024-05-01"), in that order, so a small model can
    copy them into its answer one after the other; then the zone and the full ISO 8601
    datetime.
    """
    return {
        "time": f"{now:%H:%M}",
        "weekday": _WEEKDAYS[now.weekday()],
        "date": f"{now:%Y-%m-%d}",
        "timezone": zone_name,
        "datetime": now.isoformat(timespec="seconds"),
    }


def _example(task: str, zone: str, moment: str, answer: str) -> ToolExample:
    """An example at a fixed, made-up UTC ``moment``: the result is what the tool returns
    then (:func:`reading`); ``answer`` is formatted with the result's fields.
    """
    now = datetime.fromisoformat(moment).astimezone(ZoneInfo(zone))
    result = reading(now, zone)
    return ToolExample(task, {"timezone": zone}, result, answer.format(**result))


EXAMPLES = (
    _example(
        "What time is it in Madrid?",
        "Europe/Madrid",
        "2024-05-01T09:30:00+00:00",
        "In Madrid it is {time} on {weekday}, {date}.",
    ),
    _example(
        "Which day of the week is it in Seoul?",
        "Asia/Seoul",
        "2023-11-16T20:05:00+00:00",
        "In Seoul it is {time} on {weekday}, {date}.",
    ),
    _example(
        "What is the date today in Toronto?",
        "America/Toronto",
        "2025-02-03T14:45:00+00:00",
        "In Toronto it is {time} on {weekday}, {date}.",
    ),
)
"""The clock's worked examples for few-shot prompts: what the tool returns at fixed,
made-up moments (different dates, so no weekday or time can be copied from one)."""


@tool(examples=EXAMPLES)
def current_time(
    timezone: Annotated[
        str | None,
        Field(
            description="an IANA time zone such as Europe/Paris; "
            "the computer's local time zone when omitted"
        ),
    ] = None,
) -> dict[str, str]:
    """Get the current time, weekday and date, with the time zone and the ISO 8601 datetime."""
    if timezone is None or not timezone.strip():
        now = datetime.now().astimezone()
        zone_name = now.tzname() or "local"
    else:
        zone_name = _resolve(timezone.strip())
        now = datetime.now(ZoneInfo(zone_name))
    return reading(now, zone_name)
