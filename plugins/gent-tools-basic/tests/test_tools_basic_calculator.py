"""The calculator: accepted expressions, refused ones, bounded work, clear errors."""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from typing import Any

import pytest
from gent_tools_basic import arithmetic
from gent_tools_basic.arithmetic import MAX_EXPRESSION_LENGTH, MAX_INTEGER_DIGITS, evaluate
from gent_tools_basic.calculator_tool import CalculatorError, calculator

from gent_core.testing import run_tool_sync


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("7 / 2", 3.5),
        ("7 // 2", 3),
        ("-7 % 3", 2),
        ("2 ** 10", 1024),
        ("2 ** -1", 0.5),
        ("-(3 - 5)", 2),
        ("+4", 4),
        ("1.5e3 + 0.5", 1500.5),
        ("sqrt(16) + abs(-2)", 6.0),
        ("round(2.567, 2)", 2.57),
        ("round(7.5)", 8),
        ("floor(2.7) + ceil(2.1)", 5),
        ("log(8, 2)", 3.0),
        ("log(e)", 1.0),
        ("exp(0)", 1.0),
        ("sin(0) + cos(0) + tan(0)", 1.0),
        ("min(4, 2, 8) + max(1, 9)", 11),
        ("2 * pi", 2 * math.pi),
        ("2 ** 9000 // 2 ** 8999", 2),
        ("1" + "+1" * 400, 401),  # long: no recursion limit on the left-nested tree
        ("-" * 900 + "5", 5),  # deeply nested unary operators
    ],
)
def test_accepted_expressions(expression: str, expected: float) -> None:
    result = run_tool_sync(calculator, {"expression": expression})
    assert result.ok
    assert result.output == pytest.approx(expected)
    assert type(result.output) is type(expected)


@pytest.mark.parametrize(
    ("expression", "problem"),
    [
        ("__import__('os')", "unknown function '__import__'"),
        ("__import__('os').system('true')", "not allowed: attribute access"),
        ("math.pi", "not allowed: attribute access"),
        ("().__class__", "not allowed: attribute access"),
        ("open('/etc/passwd')", "unknown function 'open'"),
        ("x + 1", "unknown name 'x'"),
        ("sqrt", "sqrt is a function"),
        ("[1, 2][0]", "not allowed: indexing"),
        ("'a' * 3", "'a' is not a number"),
        ("True + 1", "True is not a number"),
        ("1j * 2", "1j is not a number"),
        ("1 < 2", "not allowed: comparisons"),
        ("1 and 2", "not allowed: and/or"),
        ("[x for x in (1, 2)]", "not allowed: comprehensions"),
        ("lambda: 1", "not allowed: lambda"),
        ("(y := 2)", "not allowed: assignment"),
        ("1 << 3", "the operator << is not allowed"),
        ("~1", "the operator ~ is not allowed"),
        ("sqrt(x=4)", "keyword arguments are not allowed"),
        ("sqrt(1, 2)", "sqrt() takes 1 arguments, got 2"),
        ("max()", "max() takes 1 or more arguments, got 0"),
        ("1 +", "invalid syntax"),
        ("", "the expression is empty"),
        ("(" * 300 + "1" + ")" * 300, "invalid syntax"),
    ],
)
def test_refused_expressions_say_what_is_accepted(expression: str, problem: str) -> None:
    with pytest.raises(CalculatorError) as caught:
        run_tool_sync(calculator, {"expression": expression})
    message = caught.value.model_message
    assert problem in message
    assert "Accepted: numbers, + - * / // % ** (power)" in message
    assert caught.value.location.tool == "calculator"


@pytest.mark.parametrize(
    ("expression", "problem"),
    [
        ("1/0", "division by zero"),
        ("5 // 0", "division by zero"),
        ("5 % 0", "division by zero"),
        ("0 ** -1", "division by zero"),
        ("sqrt(-1)", "sqrt(-1) is not defined"),
        ("log(0)", "log(0) is not defined"),
        ("(-8) ** 0.5", "not a real number"),
        ("10.0 ** 400", "too large"),
        ("exp(1000)", "too large"),
        ("1e308 * 10", "too large"),
        ("1e999", "too large"),
        ("sqrt(2 ** 9000)", "too large"),
        ("round(5, 10 ** 9)", "round() takes a whole number of digits"),
    ],
)
def test_math_errors_are_clear(expression: str, problem: str) -> None:
    with pytest.raises(CalculatorError) as caught:
        run_tool_sync(calculator, {"expression": expression})
    assert problem in caught.value.model_message
    assert "Accepted:" not in caught.value.model_message  # the expression itself was fine


@pytest.mark.parametrize(
    "expression",
    [
        "9**9**9",
        "2**2**2**2**2**2",
        "(10**100)**(10**100)",
        "10**3001",
        "(2**5000) * (2**5000)",
        "99**99**99 + 1",
        "(9**999) ** (9**999)",
    ],
)
def test_huge_results_are_refused_before_computing(
    expression: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every operator goes through a spy that refuses to compute an integer result over the
    digit limit: the calculator must refuse such an operation itself, before calling it."""

    def spy(kind: type[ast.operator], operation: Callable[[Any, Any], Any]) -> Any:
        def checked(left: Any, right: Any) -> Any:
            if isinstance(left, int) and isinstance(right, int) and left and right:
                if kind is ast.Pow and right > 0 and abs(left) > 1:
                    huge = right > 10**6 or right * math.log10(abs(left)) >= MAX_INTEGER_DIGITS
                else:
                    huge = kind is ast.Mult and (
                        math.log10(abs(left)) + math.log10(abs(right)) >= MAX_INTEGER_DIGITS
                    )
                assert not huge, f"computing {kind.__name__} of a result over the digit limit"
            return operation(left, right)

        return checked

    spied = {kind: spy(kind, operation) for kind, operation in arithmetic._BINARY.items()}
    monkeypatch.setattr(arithmetic, "_BINARY", spied)
    with pytest.raises(CalculatorError) as caught:
        run_tool_sync(calculator, {"expression": expression})
    assert "digits" in caught.value.model_message


def test_large_but_bounded_results_are_computed() -> None:
    assert run_tool_sync(calculator, {"expression": "10**2999"}).output == 10**2999
    assert run_tool_sync(calculator, {"expression": "2**9000 * 3"}).output == 3 * 2**9000


def test_expression_length_is_bounded() -> None:
    with pytest.raises(CalculatorError, match="limit is 1000"):
        run_tool_sync(calculator, {"expression": "1+" * MAX_EXPRESSION_LENGTH + "1"})


def test_evaluate_is_exact_on_integers() -> None:
    assert evaluate("2**100 + 1") == 2**100 + 1
    assert isinstance(evaluate("6 // 3"), int)


def test_schema_and_description() -> None:
    assert calculator.name == "calculator"
    assert calculator.parameters["required"] == ["expression"]
    assert calculator.parameters["properties"]["expression"]["type"] == "string"
    assert calculator.description.startswith("Evaluate an arithmetic expression")
