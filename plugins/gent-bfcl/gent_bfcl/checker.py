"""gent's checker of BFCL answers: BFCL's AST rules, judging parsed calls against the
possible answers.

Re-implemented from ``bfcl_eval/eval_checker/ast_eval/ast_checker.py`` (bfcl-eval,
Apache-2.0; see NOTICE) for Python-syntax categories, and from BFCL's relevance runner for
irrelevance. The calls are ``[{name: {argument: value}}, ...]`` with BFCL's function names
(map gent tool names back with :func:`gent_bfcl.names.from_gent_name`), as the model wrote
them (before any default is filled in). How each category is judged:

* ``simple``: exactly one call, checked against the first function offered;
* ``multiple``: as many calls as expected (one), the first checked against the expected
  function;
* ``parallel``: as many calls as expected, in any order. Like BFCL, each expected call in
  turn takes the *first* unmatched call that satisfies it (a greedy match, not an optimal
  one);
* ``irrelevance``: valid when there is no call. As in BFCL, where the input is not in the
  calls form it counts as no call.

One call against one expected call (BFCL's ``simple_function_checker``), first failure wins:
the function's name; every ``required`` parameter present; then each argument in the order
given: declared and among the possible answers, of the right type, of an accepted value
(:mod:`gent_bfcl.values`); then every expected parameter without ``""`` among its accepted
values present.

Differences from BFCL, none of which changes a verdict BFCL gives: where BFCL raises (a
parameter list without ``required``, malformed possible answers or model values, see
:mod:`gent_bfcl.values`), this checker judges (a missing ``required`` is an empty list); it
reports finer failure kinds (:class:`~gent_bfcl.verdict.FailureKind`: no call instead of a
wrong count, and for parallel calls the reason of the closest candidate instead of "cannot
find a match"); it never renames functions (BFCL's ``underscore_to_dot`` is a per-model
setting; gent maps names itself).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gent_bfcl.categories import check_kind
from gent_bfcl.values import (
    NESTED_TYPES,
    PYTHON_TYPES,
    check_dict,
    check_list,
    check_list_of_dicts,
    check_string,
    check_type,
)
from gent_bfcl.verdict import FailureKind, Verdict

if TYPE_CHECKING:
    from gent_bfcl.data import BFCLTask

__all__ = ["check", "check_call", "check_task", "is_calls"]

Call = Mapping[str, Mapping[str, Any]]


def is_calls(value: object) -> bool:
    """Whether ``value`` has the calls form ``[{name: {argument: value}}, ...]`` (a list of
    one-key dictionaries whose value is a dictionary; ``[]`` included).
    """
    return isinstance(value, list) and all(
        isinstance(call, dict) and len(call) == 1 and isinstance(next(iter(call.values())), dict)
        for call in value
    )


def _declared(function: Mapping[str, Any], param: str) -> tuple[str, type, type | None]:
    """The declared type of ``param``, its Python type and its items' Python type.

    Raises:
        ValueError: When the function doc declares no known type (a data problem).
    """
    details = function["parameters"]["properties"][param]
    declared = details.get("type") if isinstance(details, Mapping) else None
    if not isinstance(declared, str) or declared not in PYTHON_TYPES:
        raise ValueError(
            f"function {function.get('name')!r}, parameter {param!r}: cannot judge the type "
            f"{declared!r}; BFCL's Python rules know {', '.join(PYTHON_TYPES)}"
        )
    nested: type | None = None
    if declared in NESTED_TYPES:
        items = details.get("items")
        item_type = items.get("type") if isinstance(items, Mapping) else None
        if not isinstance(item_type, str) or item_type not in PYTHON_TYPES:
            raise ValueError(
                f"function {function.get('name')!r}, parameter {param!r}: cannot judge the "
                f"item type {item_type!r}; BFCL's Python rules know {', '.join(PYTHON_TYPES)}"
            )
        nested = PYTHON_TYPES[item_type]
    return declared, PYTHON_TYPES[declared], nested


def _check_argument(
    function: Mapping[str, Any], param: str, value: Any, accepted: Sequence[Any]
) -> Verdict:
    declared, expected, nested = _declared(function, param)
    if declared == "tuple" and type(value) is tuple:
        value = list(value)
    if declared == "float" and type(value) is int:
        value = float(value)
    typed = check_type(param, value, accepted, declared, expected, nested)
    if not typed.valid:
        return Verdict.fail(FailureKind.WRONG_TYPE, typed.message)
    if not typed.is_variable:
        if expected is dict:
            return check_dict(param, value, accepted)
        if expected is list and nested is dict:
            return check_list_of_dicts(param, value, accepted)
        if expected is str:
            return check_string(param, value, accepted)
        if expected is list:
            return check_list(param, value, accepted)
    if value in accepted:
        return Verdict.ok()
    return Verdict.fail(
        FailureKind.WRONG_VALUE,
        f"invalid value for parameter {param!r}: {value!r}; expected one of {list(accepted)!r}",
    )


def check_call(
    function: Mapping[str, Any], call: Call, expected: Mapping[str, Mapping[str, Sequence[Any]]]
) -> Verdict:
    """Judge one call against one expected call ``{name: {argument: [accepted values]}}``,
    for the function doc ``function`` (see the module docstring for the order of checks).

    Raises:
        ValueError: When the function doc declares a type BFCL's rules do not know.
    """
    accepted_args = next(iter(expected.values()))
    name = function["name"]
    if name not in call:
        return Verdict.fail(
            FailureKind.WRONG_FUNCTION, f"expected a call of {name!r}, got {', '.join(call)}"
        )
    args = call[name]
    parameters = function["parameters"]
    properties = parameters.get("properties", {})
    for param in parameters.get("required", []):
        if param not in args:
            return Verdict.fail(
                FailureKind.MISSING_ARGUMENT, f"missing required parameter {param!r}"
            )
    for param, value in args.items():
        if param not in properties or param not in accepted_args:
            return Verdict.fail(FailureKind.UNEXPECTED_ARGUMENT, f"unexpected parameter {param!r}")
        verdict = _check_argument(function, param, value, accepted_args[param])
        if not verdict.valid:
            return verdict
    for param, accepted in accepted_args.items():
        if param not in args and "" not in accepted:
            return Verdict.fail(
                FailureKind.MISSING_ARGUMENT,
                f"parameter {param!r} is missing and may not be left out",
            )
    return Verdict.ok()


def _find(functions: Sequence[Mapping[str, Any]], name: str) -> Mapping[str, Any]:
    for function in functions:
        if function.get("name") == name:
            return function
    raise ValueError(f"the possible answer calls {name!r}, which no function doc describes")


def _count(calls: Sequence[Call], wanted: int) -> Verdict | None:
    if len(calls) == wanted:
        return None
    if not calls:
        return Verdict.fail(FailureKind.NO_CALL, f"no call; expected {wanted}")
    return Verdict.fail(FailureKind.WRONG_COUNT, f"{len(calls)} call(s); expected {wanted}")


def _check_parallel(
    functions: Sequence[Mapping[str, Any]], calls: Sequence[Call], answer: Sequence[Any]
) -> Verdict:
    wrong = _count(calls, len(answer))
    if wrong is not None:
        return wrong
    matched: set[int] = set()
    for number, expected in enumerate(answer, start=1):
        name = next(iter(expected))
        function = _find(functions, name)
        failures: list[Verdict] = []
        for index, call in enumerate(calls):
            if index in matched:
                continue
            verdict = check_call(function, call, expected)
            if verdict.valid:
                matched.add(index)
                break
            failures.append(verdict)
        else:
            closest = next(
                (v for v in failures if v.kind is not FailureKind.WRONG_FUNCTION), failures[0]
            )
            assert closest.kind is not None
            return Verdict.fail(
                closest.kind,
                f"no call matches expected call {number} ({name!r}); closest: {closest.message}",
            )
    return Verdict.ok()


def check(
    category: str,
    functions: Sequence[Mapping[str, Any]],
    calls: object,
    possible_answer: Sequence[Any] | None,
) -> Verdict:
    """Judge ``calls`` for a task of ``category`` (see the module docstring).

    Args:
        category: A supported BFCL category (it decides how the task is judged).
        functions: The task's function docs, in BFCL's dialect.
        calls: The parsed calls ``[{name: {argument: value}}, ...]``; anything else is
            ``malformed`` (or, for irrelevance, no call).
        possible_answer: The expected calls ``[{name: {argument: [accepted values]}}]``
            (``None`` for irrelevance).

    Returns:
        The verdict: valid, or the failure kind and what was wrong.

    Raises:
        ValueError: Only for data problems: an unsupported category, a missing possible
            answer, a function doc BFCL's rules cannot judge. Nothing in ``calls`` raises.
    """
    kind = check_kind(category)
    if kind == "irrelevance":
        if is_calls(calls) and calls:
            assert isinstance(calls, list)
            names = ", ".join(next(iter(call)) for call in calls)
            return Verdict.fail(
                FailureKind.CALL_MADE, f"expected no call (no function fits), got {names}"
            )
        return Verdict.ok()
    if not possible_answer:
        raise ValueError(f"a task of {category!r} needs its possible answer")
    if not functions:
        raise ValueError(f"a task of {category!r} needs its function docs")
    if not is_calls(calls):
        return Verdict.fail(
            FailureKind.MALFORMED,
            f"not in the calls form [{{name: {{argument: value}}}}, ...]: {calls!r}"[:500],
        )
    assert isinstance(calls, list)
    if kind == "parallel":
        return _check_parallel(functions, calls, possible_answer)
    if kind == "multiple":
        wrong = _count(calls, len(possible_answer))
        if wrong is not None:
            return wrong
        function = _find(functions, next(iter(possible_answer[0])))
        return check_call(function, calls[0], possible_answer[0])
    wrong = _count(calls, 1)
    if wrong is not None:
        return wrong
    return check_call(functions[0], calls[0], possible_answer[0])


def check_task(task: BFCLTask, calls: object) -> Verdict:
    """Judge ``calls`` for ``task`` (:func:`check` with the task's category, functions and
    possible answer).
    """
    return check(task.category, task.functions, calls, task.possible_answer)
