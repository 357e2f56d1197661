"""Python checks of ``basic-tools.yaml`` whose expected value depends on what the clock tool
returned during the run (so they hold on any date).

A suite names them as ``python: "basic_tools_checks:years_since"``: the suite's folder is
importable while it loads.
"""

from __future__ import annotations

from gent_eval.checks import CheckContext, numbers_in


def _clock_values(context: CheckContext, start: int, end: int) -> set[int]:
    """Integers cut from the ``datetime`` of every successful current_time call."""
    values = set()
    for call in context.calls("current_time", succeeded=True):
        stamp = call.output.get("datetime", "") if isinstance(call.output, dict) else ""
        if stamp[start:end].isdigit():
            values.add(int(stamp[start:end]))
    return values


def _answer_has(context: CheckContext, expected: set[int], what: str) -> bool:
    assert context.answered, f"the run gave no answer ({context.result.stop_reason})"
    assert expected, "current_time returned no date in this run"
    found = numbers_in(context.answer_text)
    assert any(number in expected for number in found), (
        f"expected {what} {sorted(expected)} in the answer, found {found or 'no number'}"
    )
    return True


def years_since(context: CheckContext, since: int) -> bool:
    """The answer states the current year (as the tool returned it) minus ``since``."""
    years = _clock_values(context, 0, 4)
    return _answer_has(context, {year - since for year in years}, f"years since {since}")


def months_left(context: CheckContext) -> bool:
    """The answer states 12 minus the current month (as the tool returned it)."""
    months = _clock_values(context, 5, 7)
    return _answer_has(context, {12 - month for month in months}, "months left")
