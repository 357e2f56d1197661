"""The calculator reads written arithmetic ("9876 minus 6789") when the expression as
written is not valid, and never changes the meaning of a valid one."""

from __future__ import annotations

import pytest
from gent_tools_basic.arithmetic import evaluate
from gent_tools_basic.calculator_tool import CalculatorError, calculator
from gent_tools_basic.wording import rewrite

from gent_core.testing import assert_linear, run_tool_sync


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("9876 minus 6789", 3087),
        ("12 plus 5", 17),
        ("37 times 43", 1591),
        ("6 multiplied by 7", 42),
        ("2 divided by 4", 0.5),
        ("17% of 200", 34.0),
        ("25 percent of 80", 20.0),
        ("2 to the power of 10", 1024),
        ("2 to the 16th power", 65536),
        ("3 raised to 4", 81),
        ("12 squared minus 5 squared", 119),
        ("4 cubed", 64),
        ("the square root of 2025", 45.0),
        ("cube root of 27", 3.0),
        ("2^10", 1024),
        ("7 \u00d7 6", 42),
        ("84 \u00f7 2", 42.0),
        ("50 \u2212 8", 42),
        ("1,234 + 5,678", 6912),
        ("What is 144 divided by 12?", 12.0),
        ("17 mod 5", 2),
        ("6 * 7 =", 42),
        ("subtract 999 from 5000", 4001),
        ("Add 1234 and 5678 together", 6912),
        ("add -45 to 17", -28),
        ("multiply 37 by 43", 1591),
        ("divide 81 by 0.9", 90.0),
        ("the difference between 9 and 4", 5),
        ("the sum of 250, 375 and 125", 750),
        ("product of 2, 3, and 7", 42),
        ("the average of 4, 8, 15, 16, 23 and 42", 18.0),
        ("mean of 1 and 2", 1.5),
        # the task as asked, passed whole
        ("Multiply 37 by 43.", 1591),
        ("Compute (15 + 27) * 3.", 126),
        ("Work out 2 to the power of 16.", 65536),
    ],
)
def test_written_arithmetic_is_evaluated_as_the_expression_it_spells(
    written: str, value: float
) -> None:
    assert run_tool_sync(calculator, {"expression": written}).output == pytest.approx(value)


@pytest.mark.parametrize("valid", ["2 ** 3 ** 2", "10 % 3", "(1 + 2) * 3", "-5 // 2", "pi * 2"])
def test_a_valid_expression_keeps_its_meaning(valid: str) -> None:
    assert run_tool_sync(calculator, {"expression": valid}).output == evaluate(valid)


@pytest.mark.parametrize("written", ["250, 375, 125", "3 weeks", "the answer", "2 plus plus"])
def test_what_no_rewriting_makes_valid_is_refused_with_the_original_error(written: str) -> None:
    with pytest.raises(CalculatorError) as caught:
        run_tool_sync(calculator, {"expression": written})
    assert repr(written) in caught.value.model_message
    assert "Accepted:" in caught.value.model_message


def test_rewriting_never_makes_a_name_or_call_that_the_evaluator_refuses_acceptable() -> None:
    # The rewritten text is evaluated by the same safe evaluator: no new power.
    with pytest.raises(CalculatorError):
        run_tool_sync(calculator, {"expression": "__import__('os') plus 1"})


def test_rewriting_is_linear_in_the_length() -> None:
    def make(length: int) -> str:
        return ("12 plus 5 times the square root of 9 " * (length // 36 + 1))[:length]

    assert_linear(make, rewrite, size=1000)
