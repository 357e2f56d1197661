"""The ``calculator`` tool: exact, safe arithmetic for the model."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from gent_core.errors import Location, ToolExecutionError
from gent_core.tools import ToolExample, tool
from gent_tools_basic.arithmetic import (
    ACCEPTED,
    MAX_EXPRESSION_LENGTH,
    ArithmeticProblem,
    Number,
    evaluate,
)
from gent_tools_basic.wording import rewrite

__all__ = ["EXAMPLES", "CalculatorError", "calculator"]


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


def compute(expression: str) -> Number:
    """The value of ``expression``, written in symbols (``12.5 * 8``) or, when that is not
    valid as written, in words (``12.5 times 8``, read by
    :func:`~gent_tools_basic.wording.rewrite`).

    Raises:
        CalculatorError: When it is neither, or cannot be computed.
    """
    try:
        return evaluate(expression)
    except ArithmeticProblem as problem:
        if problem.syntax and len(expression) <= MAX_EXPRESSION_LENGTH:
            # Written arithmetic ("9876 minus 6789", "7 x 6", "17% of 240"): read it as the
            # expression it spells, when that is one (a valid expression never gets here; an
            # over-long one is refused as it is, without rewriting it first).
            spelled = rewrite(expression)
            if spelled != expression.strip():
                try:
                    return evaluate(spelled)
                except ArithmeticProblem:
                    pass
        raise CalculatorError(expression, problem) from None


def _example(task: str, expression: str, answer: str) -> ToolExample:
    """An example whose result is computed by the calculator itself (so it is always true);
    ``{result}`` in ``answer`` is replaced by it.
    """
    result = compute(expression)
    return ToolExample(task, {"expression": expression}, result, answer.format(result=result))


EXAMPLES = (
    _example(
        "What is 12.5 times 8?",
        "12.5 times 8",
        "The calculator returned {result}, so 12.5 times 8 is {result}.",
    ),
    _example(
        "What is 7 to the power of 3?",
        "7 to the power of 3",
        "The calculator returned {result}, so 7 to the power of 3 is {result}.",
    ),
    _example(
        "Split 250 dollars among 4 people. How much does each get?",
        "250 / 4",
        "The calculator returned {result}, so each person gets {result} dollars.",
    ),
    _example(
        "What is the square root of 196, plus 5?",
        "the square root of 196 plus 5",
        "The calculator returned {result}, so the square root of 196, plus 5, is {result}.",
    ),
)
"""The calculator's worked examples for few-shot prompts (results computed by it). Most write
the expression in the task's own words, which the calculator reads: a small model copies
words from its task far more reliably than it translates them into operators."""


@tool(examples=EXAMPLES)
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
    return compute(expression)
