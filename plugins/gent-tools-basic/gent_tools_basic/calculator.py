"""The ``calculator`` tool: exact, safe arithmetic for the model."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from gent_core.errors import Location, ToolExecutionError
from gent_core.tools import tool
from gent_tools_basic.arithmetic import ACCEPTED, ArithmeticProblem, Number, evaluate

__all__ = ["CalculatorError", "calculator"]


class CalculatorError(ToolExecutionError):
    """An expression the calculator refused or could not compute.

    Args:
        expression: The expression as the model wrote it.
        problem: What was wrong.
    """

    def __init__(self, expression: str, problem: ArithmeticProblem) -> None:
        self.expression = expression
        self.problem = problem
        super().__init__(
            f"calculator cannot evaluate {expression[:80]!r}: {problem}",
            location=Location(tool="calculator"),
            model_message=f"Cannot evaluate {expression[:80]!r}: {problem}.",
            hint=f"Accepted: {ACCEPTED}." if problem.syntax else None,
        )


@tool
def calculator(
    expression: Annotated[
        str,
        Field(
            description="an arithmetic expression, e.g. (2 + 3) * sqrt(16) / 7",
            examples=["6 * 7"],
        ),
    ],
) -> Number:
    """Evaluate an arithmetic expression exactly and return its value.

    Accepts numbers, + - * / // % ** (power), parentheses, the functions sqrt, abs, round,
    floor, ceil, log, exp, sin, cos, tan, min, max and the constants pi and e.
    """
    try:
        return evaluate(expression)
    except ArithmeticProblem as problem:
        raise CalculatorError(expression, problem) from None
