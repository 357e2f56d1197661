"""gent's checker applies BFCL's AST rules (the fixture tasks in tests/data; the slow agreement
test runs BFCL's own checker on this same table)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gent_bfcl import BFCLTask, FailureKind, check, check_task, load_category

DATA = Path(__file__).with_name("data")

F = FailureKind
WEATHER = "get_weather"

# (task id, calls, valid, failure kind)
CASES: list[tuple[str, Any, bool, FailureKind | None]] = [
    # simple: one call of the one function
    ("simple_python_0", [{"math.factorial": {"number": 5}}], True, None),
    ("simple_python_0", [], False, F.NO_CALL),
    ("simple_python_0", [{"math.factorial": {"number": 5}}] * 2, False, F.WRONG_COUNT),
    ("simple_python_0", [{"math_factorial": {"number": 5}}], False, F.WRONG_FUNCTION),
    ("simple_python_0", [{"math.factorial": {}}], False, F.MISSING_ARGUMENT),
    ("simple_python_0", [{"math.factorial": {"number": 5, "x": 1}}], False, F.UNEXPECTED_ARGUMENT),
    ("simple_python_0", [{"math.factorial": {"number": 6}}], False, F.WRONG_VALUE),
    ("simple_python_0", [{"math.factorial": {"number": 5.0}}], False, F.WRONG_TYPE),
    ("simple_python_0", [{"math.factorial": {"number": "5"}}], False, F.WRONG_TYPE),
    ("simple_python_0", [{"math.factorial": {"number": True}}], False, F.WRONG_TYPE),
    ("simple_python_0", [{"math.factorial": 5}], False, F.MALFORMED),
    ("simple_python_0", "[math.factorial(number=5)]", False, F.MALFORMED),
    # an int for a float; an accepted value list; a parameter that may not be left out
    ("simple_python_1", [{"geometry.area_circle": {"radius": 2, "units": "ft"}}], True, None),
    ("simple_python_1", [{"geometry.area_circle": {"radius": 2.0, "units": "FEET"}}], True, None),
    ("simple_python_1", [{"geometry.area_circle": {"radius": 2.0}}], False, F.MISSING_ARGUMENT),
    (
        "simple_python_1",
        [{"geometry.area_circle": {"radius": 2.5, "units": "ft"}}],
        False,
        F.WRONG_VALUE,
    ),
    # optional parameters, string normalisation, tuples, dictionaries, lists
    ("simple_python_2", [{WEATHER: {"city": "San Francisco, CA"}}], True, None),
    ("simple_python_2", [{WEATHER: {"city": "san francisco ca", "days": 3}}], True, None),
    ("simple_python_2", [{WEATHER: {"city": "S.F.", "days": 3}}], True, None),
    ("simple_python_2", [{WEATHER: {"city": "San Jose", "days": 3}}], False, F.WRONG_VALUE),
    ("simple_python_2", [{WEATHER: {"city": "SF", "point": (37.7, -122.4)}}], True, None),
    ("simple_python_2", [{WEATHER: {"city": "SF", "point": [37.7, -122.4]}}], True, None),
    # (items are type-checked only when the first accepted value is a list: here it is "")
    ("simple_python_2", [{WEATHER: {"city": "SF", "point": [37.7, -122]}}], False, F.WRONG_VALUE),
    ("simple_python_2", [{WEATHER: {"city": "SF", "point": [37.7]}}], False, F.WRONG_VALUE),
    ("simple_python_2", [{WEATHER: {"city": "SF", "options": {"lang": "EN"}}}], True, None),
    (
        "simple_python_2",
        [{WEATHER: {"city": "SF", "options": {"metric": True, "lang": "English"}}}],
        True,
        None,
    ),
    (
        "simple_python_2",
        [{WEATHER: {"city": "SF", "options": {"metric": True}}}],
        False,
        F.WRONG_VALUE,
    ),
    (
        "simple_python_2",
        [{WEATHER: {"city": "SF", "options": {"lang": "en", "x": 1}}}],
        False,
        F.WRONG_VALUE,
    ),
    ("simple_python_2", [{WEATHER: {"city": "SF", "tags": ["NOW", "today"]}}], True, None),
    (
        "simple_python_2",
        [{WEATHER: {"city": "SF", "tags": ["today", "now"]}}],
        False,
        F.WRONG_VALUE,
    ),
    ("simple_python_2", [{WEATHER: {"city": "SF", "tags": []}}], True, None),
    ("simple_python_2", [{WEATHER: {"city": "SF", "tags": "now"}}], False, F.WRONG_TYPE),
    ("simple_python_2", [{WEATHER: {"city": "SF", "anything": "x"}}], False, F.WRONG_VALUE),
    ("simple_python_2", [{WEATHER: {"city": "SF", "days": None}}], False, F.WRONG_TYPE),
    ("simple_python_2", [{WEATHER: {"days": 3}}], False, F.MISSING_ARGUMENT),
    # multiple: the expected one among several functions
    ("multiple_0", [{"geometry.area_circle": {"radius": 3}}], True, None),
    ("multiple_0", [{"math.factorial": {"number": 3}}], False, F.WRONG_FUNCTION),
    (
        "multiple_0",
        [{"geometry.area_circle": {"radius": 3, "units": "feet"}}],
        False,
        F.WRONG_VALUE,
    ),
    # parallel: every expected call, in any order, each call used once
    (
        "parallel_0",
        [{"math.factorial": {"number": n}} for n in (5, 3, 4)],
        True,
        None,
    ),
    (
        "parallel_0",
        [{"math.factorial": {"number": n}} for n in (3, 3, 4)],
        False,
        F.WRONG_VALUE,
    ),
    ("parallel_0", [{"math.factorial": {"number": n}} for n in (3, 4)], False, F.WRONG_COUNT),
    ("parallel_0", [], False, F.NO_CALL),
    (
        "parallel_1",
        [{"geometry.area_circle": {"radius": 1}}, {"math.factorial": {"number": 5}}],
        True,
        None,
    ),
    (
        "parallel_1",
        [{"geometry.area_circle": {"radius": 1, "units": "m"}}, {"math.factorial": {"number": 5}}],
        False,
        F.WRONG_VALUE,
    ),
    (
        "parallel_1",
        [{"geometry.area_circle": {"radius": 1, "color": 1}}, {"math.factorial": {"number": 5}}],
        False,
        F.UNEXPECTED_ARGUMENT,
    ),
    (
        "parallel_1",
        [{"math.factorial": {"number": 5}}, {"math.factorial": {"number": 5}}],
        False,
        F.WRONG_FUNCTION,
    ),
    # irrelevance: no call
    ("irrelevance_0", [], True, None),
    ("irrelevance_0", [{"math.factorial": {}}], False, F.CALL_MADE),
    ("irrelevance_0", "Shakespeare wrote it.", True, None),
]


def fixture_tasks() -> dict[str, BFCLTask]:
    """The fixture tasks by id."""
    categories = ["simple_python", "multiple", "parallel", "irrelevance"]
    return {task.id: task for c in categories for task in load_category(c, DATA)}


@pytest.mark.parametrize(("task_id", "calls", "valid", "kind"), CASES)
def test_verdict(task_id: str, calls: Any, valid: bool, kind: FailureKind | None) -> None:
    verdict = check_task(fixture_tasks()[task_id], calls)
    assert (verdict.valid, verdict.kind) == (valid, kind), verdict.message
    assert bool(verdict.message) is not valid


def _function(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    parameters = {"type": "dict", "properties": properties, "required": required or []}
    return {"name": "f", "description": "A function.", "parameters": parameters}


INT_AB = [_function({"a": {"type": "integer"}, "b": {"type": "integer"}}, ["a"])]
FLOATS = [_function({"xs": {"type": "array", "items": {"type": "float"}}})]
COUNT = [_function({"n": {"type": "integer"}})]

# (name, category, functions, calls, possible answer, valid, kind): judged by BFCL's own
# checker too in the slow agreement test.
RAW_CASES: list[tuple[str, str, list[dict[str, Any]], Any, Any, bool, FailureKind | None]] = [
    # Parallel calls: each expected call takes the first call that satisfies it, so an
    # assignment that exists can be missed (BFCL's behaviour, kept).
    (
        "greedy_missed",
        "parallel",
        INT_AB,
        [{"f": {"a": 1, "b": 2}}, {"f": {"a": 1}}],
        [{"f": {"a": [1], "b": ["", 2]}}, {"f": {"a": [1], "b": [2]}}],
        False,
        F.MISSING_ARGUMENT,
    ),
    (
        "greedy_found",
        "parallel",
        INT_AB,
        [{"f": {"a": 1}}, {"f": {"a": 1, "b": 2}}],
        [{"f": {"a": [1], "b": ["", 2]}}, {"f": {"a": [1], "b": [2]}}],
        True,
        None,
    ),
    # Items are type-checked one level deep, without int-for-float.
    (
        "items_ok",
        "simple_python",
        FLOATS,
        [{"f": {"xs": [1.5, 2.0]}}],
        [{"f": {"xs": [[1.5, 2.0]]}}],
        True,
        None,
    ),
    (
        "items_int",
        "simple_python",
        FLOATS,
        [{"f": {"xs": [1.5, 2]}}],
        [{"f": {"xs": [[1.5, 2.0]]}}],
        False,
        F.WRONG_TYPE,
    ),
    # Where the answers hold another type than declared (BFCL writes a variable name as a
    # string), a value of that type is compared as is (no string normalisation).
    (
        "variable",
        "simple_python",
        COUNT,
        [{"f": {"n": "count"}}],
        [{"f": {"n": ["count"]}}],
        True,
        None,
    ),
    (
        "variable_case",
        "simple_python",
        COUNT,
        [{"f": {"n": "COUNT"}}],
        [{"f": {"n": ["count"]}}],
        False,
        F.WRONG_VALUE,
    ),
    (
        "variable_int",
        "simple_python",
        COUNT,
        [{"f": {"n": 3}}],
        [{"f": {"n": ["count"]}}],
        False,
        F.WRONG_VALUE,
    ),
]


@pytest.mark.parametrize(
    ("category", "functions", "calls", "answer", "valid", "kind"),
    [case[1:] for case in RAW_CASES],
    ids=[case[0] for case in RAW_CASES],
)
def test_rule(
    category: str,
    functions: list[dict[str, Any]],
    calls: Any,
    answer: Any,
    valid: bool,
    kind: FailureKind | None,
) -> None:
    verdict = check(category, functions, calls, answer)
    assert (verdict.valid, verdict.kind) == (valid, kind), verdict.message


def test_data_it_cannot_judge_is_an_error_not_a_verdict() -> None:
    functions = [_function({"n": {"type": "number"}})]
    with pytest.raises(ValueError, match="cannot judge the type 'number'"):
        check("simple_python", functions, [{"f": {"n": 1}}], [{"f": {"n": [1]}}])
    with pytest.raises(ValueError, match="no function doc describes"):
        check("multiple", functions, [{"g": {}}], [{"g": {}}])
    with pytest.raises(ValueError, match="needs its possible answer"):
        check("simple_python", functions, [], None)
    with pytest.raises(ValueError, match="unknown BFCL category 'simple'"):
        check("simple", functions, [], [{"f": {}}])


def test_nothing_in_the_calls_raises() -> None:
    task = fixture_tasks()["simple_python_2"]
    strange: list[Any] = [
        None,
        {},
        [None],
        [{}],
        [{WEATHER: {"city": ["a"], "options": [1], "tags": [{"x": 1}], "point": "p"}}],
        [{WEATHER: {"city": "SF", "options": {"lang": ["en"]}}}],
        [{WEATHER: {"city": object()}}],
    ]
    for calls in strange:
        assert not check_task(task, calls).valid
