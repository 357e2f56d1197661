"""current_time: local time, IANA zones, and unknown zones."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from gent_tools_basic.clock import UnknownTimeZoneError, current_time

from gent_core.testing import run_tool_sync

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _close_to_now(iso: str) -> datetime:
    moment = datetime.fromisoformat(iso)
    assert moment.tzinfo is not None
    assert abs(moment - datetime.now(timezone.utc)) < timedelta(seconds=5)
    return moment


def test_without_zone_gives_local_time_with_offset() -> None:
    output = run_tool_sync(current_time).output
    moment = _close_to_now(output["datetime"])
    assert moment.utcoffset() == datetime.now().astimezone().utcoffset()
    assert output["weekday"] == WEEKDAYS[moment.weekday()]
    assert output["timezone"]


@pytest.mark.parametrize(
    ("zone", "offsets"),
    [
        ("UTC", {timedelta(0)}),
        ("Asia/Tokyo", {timedelta(hours=9)}),
        ("Europe/Paris", {timedelta(hours=1), timedelta(hours=2)}),
        ("America/New_York", {timedelta(hours=-5), timedelta(hours=-4)}),
    ],
)
def test_with_zone(zone: str, offsets: set[timedelta]) -> None:
    output = run_tool_sync(current_time, {"timezone": zone}).output
    moment = _close_to_now(output["datetime"])
    assert moment.utcoffset() in offsets
    assert output["timezone"] == zone
    assert output["weekday"] == WEEKDAYS[moment.weekday()]
    assert "." not in output["datetime"]  # second precision
    # the date and time as a person says them, from the same moment
    assert output["date"] == output["datetime"][:10]
    assert output["time"] == output["datetime"][11:16]
    assert list(output) == ["time", "weekday", "date", "timezone", "datetime"]


@pytest.mark.parametrize(
    ("written", "zone"),
    [
        ("europe/paris", "Europe/Paris"),
        ("Paris", "Europe/Paris"),
        ("Tokyo", "Asia/Tokyo"),
        ("Europe/Tokyo", "Asia/Tokyo"),
        ("new york", "America/New_York"),
        ("Europe/Sydney", "Australia/Sydney"),
        ("utc", "UTC"),
        ("America/SaoPaulo", "America/Sao_Paulo"),
        ("São Paulo", "America/Sao_Paulo"),
        ("mexico-city", "America/Mexico_City"),
        ("Asia/India", "Asia/Kolkata"),
        ("Japan", "Japan"),  # an old zone name of its own
        ("Europe/Greece", "Europe/Athens"),
    ],
)
def test_a_zone_named_by_its_city_or_in_another_case_is_the_one_zone_it_names(
    written: str, zone: str
) -> None:
    result = run_tool_sync(current_time, {"timezone": written})
    assert result.output["timezone"] == zone
    offset = datetime.fromisoformat(result.output["datetime"]).utcoffset()
    assert offset == datetime.now(ZoneInfo(zone)).utcoffset()


@pytest.mark.parametrize(
    ("zone", "suggestion"),
    [
        ("Europe/Pariss", "'Europe/Paris'"),
        ("America/New_Yrok", "'America/New_York'"),
        ("Indian", "'Indian/Mahe'"),
        ("Brazil", "'America/"),  # a country with several zones: suggested, not guessed
        ("Mars/Olympus_Mons", None),
        ("../../etc/passwd", None),
        ("x" * 500, None),
    ],
)
def test_unknown_zone_explains_how_to_write_one(zone: str, suggestion: str | None) -> None:
    with pytest.raises(UnknownTimeZoneError) as caught:
        run_tool_sync(current_time, {"timezone": zone})
    message = caught.value.model_message
    assert message.startswith("Unknown time zone")
    assert "Write an IANA time zone name (Area/City) such as 'Europe/Paris'" in message
    if suggestion is not None:
        assert f"Did you mean {suggestion}" in message
    else:
        assert "Did you mean" not in message
