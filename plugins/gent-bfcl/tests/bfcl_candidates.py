"""Candidate answers for the agreement test: the reference answer of a task and systematic
mutations of it (as calls), and raw outputs a prompted model could write (as text).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from gent_bfcl import BFCLTask, reference_calls, write_calls

Calls = Any  # calls, or deliberately malformed ones


def _changed(value: Any) -> Any:
    """Another value of the same type."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + 1.5
    if isinstance(value, str):
        return value + "zz"
    if isinstance(value, list):
        return [*value, value[0]] if value else ["zz"]
    if isinstance(value, dict):
        return {**value, "gent_extra": "zz"}
    return "zz"


def _retyped(value: Any) -> Any:
    """The value as another type."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return 7
    if isinstance(value, list):
        return {"items": value}
    if isinstance(value, dict):
        return list(value.values())
    return 0


def _normalized(value: Any) -> Any:
    """A spelling BFCL's string rules accept as the same (case, spaces, punctuation)."""
    if isinstance(value, str):
        return " " + value.upper().replace(" ", " - ") + "."
    if isinstance(value, list):
        return [_normalized(item) if isinstance(item, str) else item for item in value]
    return value


def _with_arg(calls: list[dict[str, dict[str, Any]]], param: str, value: Any) -> Calls:
    changed = copy.deepcopy(calls)
    name = next(iter(changed[0]))
    changed[0][name][param] = value
    return changed


def _without_arg(calls: list[dict[str, dict[str, Any]]], param: str) -> Calls:
    changed = copy.deepcopy(calls)
    name = next(iter(changed[0]))
    del changed[0][name][param]
    return changed


def _argument_mutations(task: BFCLTask, calls: Calls) -> Iterator[tuple[str, Calls]]:
    name = next(iter(calls[0]))
    args = calls[0][name]
    accepted = task.possible_answer[0][name] if task.possible_answer else {}
    for param, value in args.items():
        yield f"drop:{param}", _without_arg(calls, param)
        yield f"change:{param}", _with_arg(calls, param, _changed(value))
        yield f"retype:{param}", _with_arg(calls, param, _retyped(value))
        if isinstance(value, str | list):
            yield f"normalize:{param}", _with_arg(calls, param, _normalized(value))
        if isinstance(value, list):
            yield f"tuple:{param}", _with_arg(calls, param, tuple(value))
        if isinstance(value, float) and value.is_integer():
            yield f"int:{param}", _with_arg(calls, param, int(value))
        options = accepted.get(param, [])
        if len(options) > 1 and options[1] != "":
            yield f"second:{param}", _with_arg(calls, param, copy.deepcopy(options[1]))
    yield "unexpected_argument", _with_arg(calls, "gent_extra", 1)
    optional = [p for p in args if "" in accepted.get(p, [])]
    if optional:
        trimmed = copy.deepcopy(calls)
        for param in optional:
            del trimmed[0][name][param]
        yield "omit_optional", trimmed


def candidates(task: BFCLTask) -> Iterator[tuple[str, Calls]]:
    """``(label, calls)`` pairs for ``task``: its reference answer and mutations of it."""
    names = [str(function["name"]) for function in task.functions] or ["some_function"]
    yield "empty", []
    yield "malformed", [{names[0]: "x"}]
    if task.possible_answer is None:  # irrelevance: any call is wrong
        yield "bare_call", [{names[0]: {}}]
        yield "call", [{names[-1]: {"gent_extra": 1}}]
        return
    calls = reference_calls(task.possible_answer, task.functions)
    yield "reference", calls
    yield "extra_call", [*calls, copy.deepcopy(calls[0])]
    if len(calls) > 1:
        yield "drop_call", calls[:-1]
        yield "reversed", list(reversed(calls))
    first = next(iter(calls[0]))
    other = next((n for n in names if n != first), first + "_other")
    yield "swap_function", [{other: calls[0][first]}, *calls[1:]]
    yield from _argument_mutations(task, calls)


def texts(task: BFCLTask) -> Iterator[tuple[str, str]]:
    """``(label, text)`` raw outputs for ``task``: every candidate written as BFCL asks, and
    outputs that exercise the decoder (fences, prose, expressions, unusual syntax).
    """
    for label, calls in candidates(task):
        if label != "malformed":
            yield label, write_calls(calls)
    first: dict[str, Any] = task.functions[0] if task.functions else {"name": "f", "parameters": {}}
    name = str(first["name"])
    param = next(iter(first["parameters"].get("properties", {})), "x")
    reference = (
        write_calls(reference_calls(task.possible_answer, task.functions))
        if task.possible_answer
        else f"[{name}()]"
    )
    yield "fenced", f"```\n{reference}\n```"
    yield "fenced_python", f"```python\n{reference}\n```"
    yield "no_brackets", reference[1:-1]
    yield "quoted", f"'{reference}'"
    yield "trailing_prose", f"{reference} because it fits."
    yield "prose", "None of the functions can answer this question."
    for label, value in [
        ("arithmetic", "2 * 3 + 1"),
        ("power", "2 ** 10"),
        ("float_division", "7 / 2"),
        ("string_concat", "'a' + 'b'"),
        ("unary_minus", "-3"),
        ("unary_plus", "+5"),
        ("negated_name", "-x"),
        ("nested_call", "g(b=1)"),
        ("call_no_keywords", "g(1)"),
        ("attribute", "math.pi"),
        ("subscript", "x[0]"),
        ("lambda", "lambda: 1"),
        ("set", "{1, 2}"),
        ("fstring", "f'{x}'"),
        ("name", "some_variable"),
        ("tuple", "(1, 'a')"),
        ("dict", "{'k': [1, 2.5]}"),
        ("ellipsis", "..."),
        ("none", "None"),
        ("division_by_zero", "1 / 0"),
        ("name_arithmetic", "x + 1"),
    ]:
        yield f"value:{label}", f"[{name}({param}={value})]"
    yield "positional", f"[{name}(1, 2)]"
    yield "double_star", f"[{name}(**kw)]"
    yield "not_a_call", "[1, 2]"
    yield "syntax_error", f"[{name}({param}=]"
