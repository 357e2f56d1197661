"""The calculator's digit limit is exact: 3,000 digits are accepted, 3,001 are not (issue 11,
bug 16)."""

from __future__ import annotations

import pytest
from gent_tools_basic.arithmetic import MAX_INTEGER_DIGITS, ArithmeticProblem, evaluate

LIMIT = MAX_INTEGER_DIGITS  # 3000


def test_a_result_of_3000_digits_is_accepted() -> None:
    assert len(str(evaluate(f"10 ** {LIMIT - 1}"))) == LIMIT  # 1 and 2,999 zeros


@pytest.mark.parametrize(
    "expression",
    [
        f"10 ** {LIMIT}",  # 3,001 digits
        f"-(10 ** {LIMIT})",
        f"10 ** {LIMIT - 1} * 10",
        "10 ** 1500 * 10 ** 1500",
        f"(10 ** {LIMIT - 1}) * 9 + 10 ** {LIMIT - 1} * 2",
    ],
)
def test_results_of_3001_digits_are_refused(expression: str) -> None:
    with pytest.raises(ArithmeticProblem, match=f"more than {LIMIT} digits"):
        evaluate(expression)


def test_largest_accepted_result_has_exactly_3000_digits() -> None:
    largest = evaluate(f"(10 ** {LIMIT - 1}) * 9 + (10 ** {LIMIT - 1} - 1)")
    assert isinstance(largest, int)
    assert len(str(largest)) == LIMIT and str(largest) == "9" * LIMIT
