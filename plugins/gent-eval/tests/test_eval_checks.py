"""Each check kind passes and fails on runs built by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
from eval_doubles import record, run_result
from gent_eval.checks import (
    BUILTIN_CHECKS,
    CheckContext,
    CheckOutcome,
    ContainsCheck,
    FileCheck,
    NotContainsCheck,
    NumberCheck,
    PythonCheck,
    RegexCheck,
    ResultInAnswerCheck,
    ToolCalledCheck,
    numbers_in,
)

from gent_core.bounds import set_pattern_timeout

CLOCK = {"datetime": "2031-02-03T04:05:06+09:00", "timezone": "Asia/Tokyo", "weekday": "Monday"}


def context(
    answer: str | None, *calls: object, stop: str = "answer", where: Path = Path(".")
) -> CheckContext:
    return CheckContext("task", run_result(answer, calls, stop), where)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("It is 12.", [12.0]),
        ("1,234,567 and 3,4", [1234567.0, 3.0, 4.0]),
        ("5-3 = 2, and -28 is negative", [5.0, 3.0, 2.0, -28.0]),
        ("0.5, .25 and 1e3", [0.5, 0.25, 1000.0]),
        ("version2 x3 are words", []),
        ("12.0 equals 12", [12.0, 12.0]),
    ],
)
def test_numbers_in(text: str, numbers: list[float]) -> None:
    assert numbers_in(text) == numbers


def test_contains_all_any_and_case() -> None:
    check = ContainsCheck(text=["Tokyo", "2031"])
    assert check.evaluate(context("in tokyo it is 2031")).passed
    failed = check.evaluate(context("in tokyo"))
    assert not failed.passed
    assert "'2031'" in failed.detail
    assert ContainsCheck(text=["x", "tokyo"], any=True).evaluate(context("Tokyo")).passed
    assert not ContainsCheck(text=["Tokyo"], case_sensitive=True).evaluate(context("tokyo")).passed


def test_no_answer_fails_answer_checks() -> None:
    outcome = NumberCheck(value=1).evaluate(context(None, stop="max_steps"))
    assert not outcome.passed
    assert "max_steps" in outcome.detail


def test_not_contains() -> None:
    check = NotContainsCheck(text=["42"])
    assert check.evaluate(context("it is 12")).passed
    assert not check.evaluate(context("The calculator returned 42")).passed


def test_regex() -> None:
    assert RegexCheck(pattern=r"\b12(\.0+)?\b").evaluate(context("It is 12.0")).passed
    assert not RegexCheck(pattern=r"^12$").evaluate(context("It is 12")).passed
    with pytest.raises(ValueError, match="invalid regular expression"):
        RegexCheck(pattern="([")


def test_number_tolerance_relative_and_last() -> None:
    assert NumberCheck(value=12).evaluate(context("144 / 12 = 12.0")).passed
    assert not NumberCheck(value=12).evaluate(context("it is 13")).passed
    assert NumberCheck(value=37.78, tolerance=0.01).evaluate(context("37.7777")).passed
    assert NumberCheck(value=1000, relative=0.01).evaluate(context("about 1,005")).passed
    assert not NumberCheck(value=1000, relative=0.001).evaluate(context("about 1,005")).passed
    last = NumberCheck(value=12, which="last")
    assert last.evaluate(context("144 / 12 is 12")).passed
    assert not last.evaluate(context("12, no wait, 13")).passed
    detail = NumberCheck(value=5).evaluate(context("four")).detail
    assert "no number" in detail


def test_tool_called_name_args_and_counts() -> None:
    tokyo = record("current_time", CLOCK, timezone="Asia/Tokyo")
    failed = record("current_time", error="Unknown time zone", timezone="<timezone>")
    ctx = context("ok", failed, tokyo)
    assert ToolCalledCheck(name="current_time").evaluate(ctx).passed
    assert (
        ToolCalledCheck(name="current_time", args={"timezone": "Asia/Tokyo"}).evaluate(ctx).passed
    )
    assert not ToolCalledCheck(name="current_time", args={"timezone": "UTC"}).evaluate(ctx).passed
    assert not ToolCalledCheck(name="calculator").evaluate(ctx).passed
    # failed calls count only with succeeded: false
    placeholder = ToolCalledCheck(name="current_time", args={"timezone": "<timezone>"})
    assert not placeholder.evaluate(ctx).passed
    assert placeholder.model_copy(update={"succeeded": False}).evaluate(ctx).passed
    assert (
        ToolCalledCheck(name="current_time", args_match={"timezone": "^asia/"}).evaluate(ctx).passed
    )
    twice = ToolCalledCheck(name="current_time", succeeded=False, min=2, max=2)
    assert twice.evaluate(ctx).passed
    assert not ToolCalledCheck(name="current_time", max=0).evaluate(ctx).passed
    detail = ToolCalledCheck(name="calculator").evaluate(ctx).detail
    assert 'current_time({"timezone": "<timezone>"}) failed' in detail


def test_tool_called_returning_judges_what_the_tool_did_not_how_it_was_asked() -> None:
    # the model wrote a wrong area; the tool resolved it to the city's zone
    resolved = record("current_time", CLOCK, timezone="America/Tokyo")
    ctx = context("ok", resolved)
    tokyo = ToolCalledCheck(name="current_time", result={"timezone": "Asia/Tokyo"})
    assert tokyo.evaluate(ctx).passed
    assert not tokyo.model_copy(update={"args": {"timezone": "Asia/Tokyo"}}).evaluate(ctx).passed
    assert not ToolCalledCheck(name="current_time", result={"timezone": "UTC"}).evaluate(ctx).passed
    # dotted paths into the result; a missing path or a failed call never matches
    nested = record("lookup", {"items": [{"name": "a"}]}, q="x")
    assert (
        ToolCalledCheck(name="lookup", result={"items.0.name": "a"})
        .evaluate(context("ok", nested))
        .passed
    )
    assert not ToolCalledCheck(name="current_time", result={"nowhere": 1}).evaluate(ctx).passed
    failed = record("current_time", error="Unknown time zone", timezone="Mars/Base")
    lenient = ToolCalledCheck(
        name="current_time", result={"timezone": "Asia/Tokyo"}, succeeded=False
    )
    assert not lenient.evaluate(context("ok", failed)).passed
    assert tokyo.describe() == "called current_time returning timezone='Asia/Tokyo'"
    asia = ToolCalledCheck(name="current_time", result_match={"timezone": "^asia/"})
    assert asia.evaluate(ctx).passed
    assert asia.describe() == "called current_time returning timezone~/^asia//"
    assert (
        not asia.model_copy(update={"result_match": {"timezone": "^Europe/"}}).evaluate(ctx).passed
    )


def test_result_in_answer_reads_what_the_tool_returned() -> None:
    tokyo = record("current_time", CLOCK, timezone="Asia/Tokyo")
    year = ResultInAnswerCheck(tool="current_time", field="datetime", regex=r"^(\d{4})")
    assert year.evaluate(context("It is 2031 in Tokyo.", tokyo)).passed
    assert not year.evaluate(context("It is 2030 in Tokyo.", tokyo)).passed
    clock = ResultInAnswerCheck(tool="current_time", field="datetime", regex=r"T(\d\d:\d\d)")
    assert clock.evaluate(context("It is 04:05.", tokyo)).passed
    weekday = ResultInAnswerCheck(tool="current_time", field="weekday")
    assert weekday.evaluate(context("monday", tokyo)).passed
    none = weekday.evaluate(context("monday"))
    assert not none.passed
    assert "returned nothing" in none.detail
    missing = ResultInAnswerCheck(tool="current_time", field="nope")
    assert "no current_time field 'nope'" in missing.evaluate(context("x", tokyo)).detail


def test_result_in_answer_compares_numbers_as_numbers() -> None:
    calc = record("calculator", 12.0, expression="144/12")
    check = ResultInAnswerCheck(tool="calculator")
    assert check.evaluate(context("The answer is 12", calc)).passed
    assert not check.evaluate(context("The answer is 13", calc)).passed
    older = record("calculator", 5, expression="2+3")
    last = ResultInAnswerCheck(tool="calculator", which="last")
    assert not last.evaluate(context("5", older, calc)).passed
    assert check.evaluate(context("5", older, calc)).passed


def test_file_check(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("buy milk\n")
    ctx = context("done", where=tmp_path)
    assert FileCheck(path="notes.txt", contains=["milk"]).evaluate(ctx).passed
    assert not FileCheck(path="notes.txt", contains=["eggs"]).evaluate(ctx).passed
    assert FileCheck(path="notes.txt", regex=r"^buy").evaluate(ctx).passed
    assert FileCheck(path="notes.txt", not_contains=["eggs"]).evaluate(ctx).passed
    still = FileCheck(path="notes.txt", not_contains=["milk"]).evaluate(ctx)
    assert (still.passed, still.detail) == (False, "it still contains 'milk'")
    with pytest.raises(ValueError, match="invalid regular expression"):
        FileCheck(path="notes.txt", regex="(")
    assert not FileCheck(path="other.txt").evaluate(ctx).passed
    assert FileCheck(path="other.txt", exists=False).evaluate(ctx).passed
    with pytest.raises(ValueError, match="relative"):
        FileCheck(path="../etc/passwd")


def passes_if_answered(ctx: CheckContext, word: str = "") -> bool:
    return ctx.answered and word in ctx.answer_text


def asserts(ctx: CheckContext) -> bool:
    raise AssertionError("the answer is too short")


def raises(ctx: CheckContext) -> bool:
    raise KeyError("boom")


def returns_outcome(ctx: CheckContext) -> CheckOutcome:
    return CheckOutcome("custom", False, "custom detail")


def returns_text(ctx: CheckContext) -> str:
    return "yes"


def test_python_check_verdicts() -> None:
    module = __name__
    ctx = context("hello world")
    check = PythonCheck(function=f"{module}:passes_if_answered", args={"word": "world"})
    check.resolve()
    assert check.evaluate(ctx).passed
    assert (
        not PythonCheck(function=f"{module}:passes_if_answered", args={"word": "x"})
        .evaluate(ctx)
        .passed
    )
    failed = PythonCheck(function=f"{module}:asserts").evaluate(ctx)
    assert (failed.passed, failed.detail) == (False, "the answer is too short")
    broken = PythonCheck(function=f"{module}:raises").evaluate(ctx)
    assert not broken.passed
    assert "KeyError" in broken.detail
    assert PythonCheck(function=f"{module}:returns_outcome").evaluate(ctx).detail == "custom detail"
    wrong = PythonCheck(function=f"{module}:returns_text").evaluate(ctx)
    assert not wrong.passed
    assert "expected True, False or a CheckOutcome" in wrong.detail


def test_python_check_resolve_errors() -> None:
    with pytest.raises(ValueError, match="cannot import 'no_such_module_xyz:f'"):
        PythonCheck(function="no_such_module_xyz:f").resolve()
    with pytest.raises(ValueError, match="has no attribute 'nope'"):
        PythonCheck(function=f"{__name__}:nope").resolve()


def test_every_kind_has_a_short_option() -> None:
    for check_class in BUILTIN_CHECKS:
        assert check_class.short in check_class.model_fields


HOURS = "a" * 100 + "b"  # (a|aa)+$ would backtrack over it for hours on any machine


def test_catastrophic_patterns_fail_their_check_at_the_deadline(tmp_path: Path) -> None:
    set_pattern_timeout(0.1)
    try:
        slow = r"(a|aa)+$"
        (tmp_path / "out.txt").write_text(HOURS)
        call = record("echo", {"text": HOURS}, text=HOURS)
        outcomes = [
            RegexCheck(pattern=slow).evaluate(context(HOURS)),
            FileCheck(path="out.txt", regex=slow).evaluate(context("x", where=tmp_path)),
            ToolCalledCheck(name="echo", args_match={"text": slow}).evaluate(context("x", call)),
            ToolCalledCheck(name="echo", result_match={"text": slow}).evaluate(context("x", call)),
            ResultInAnswerCheck(tool="echo", field="text", regex=slow).evaluate(
                context(HOURS, call)
            ),
        ]
    finally:
        set_pattern_timeout(None)
    for outcome in outcomes:
        assert not outcome.passed
        assert "the pattern '(a|aa)+$' took longer than 0.1 s on this text" in outcome.detail
        assert "simplify it" in outcome.detail
