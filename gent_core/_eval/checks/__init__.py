r"""The checks of an evaluation task: what a run must show to count as solved.

A check is written in a suite as a one-key mapping, the key naming its kind::

    checks:
      - number: 12                                  # short form: the kind's main option
      - tool_called: {name: current_time, args: {timezone: Asia/Tokyo}}
      - result_in_answer: {tool: current_time, field: datetime, regex: '^(\d{4})'}

Every kind is a pydantic model (its options, validated when the suite loads) with an
:meth:`Check.evaluate` method reading a :class:`CheckContext`: the run's result, its tool
calls and results, and the task's working directory. Checks never depend on the current date:
a check about time reads what the tool returned during the run.
"""

from __future__ import annotations

from gent_core._eval.checks.answers import ContainsCheck, NotContainsCheck, NumberCheck, RegexCheck
from gent_core._eval.checks.base import Check, CheckContext, CheckOutcome, numbers_in
from gent_core._eval.checks.files import FileCheck
from gent_core._eval.checks.python import PythonCheck
from gent_core._eval.checks.tools import ResultInAnswerCheck, ToolCalledCheck

__all__ = [
    "CHECK_KINDS",
    "Check",
    "CheckContext",
    "CheckOutcome",
    "ContainsCheck",
    "FileCheck",
    "NotContainsCheck",
    "NumberCheck",
    "PythonCheck",
    "RegexCheck",
    "ResultInAnswerCheck",
    "ToolCalledCheck",
    "numbers_in",
]

CHECK_KINDS: dict[str, type[Check]] = {
    kind.kind: kind
    for kind in (
        ContainsCheck,
        NotContainsCheck,
        RegexCheck,
        NumberCheck,
        ToolCalledCheck,
        ResultInAnswerCheck,
        FileCheck,
        PythonCheck,
    )
}
"""Every check kind, by the key that names it in a suite."""
