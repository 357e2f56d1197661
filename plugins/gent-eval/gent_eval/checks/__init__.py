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

from gent_eval.checks.answers import ContainsCheck, NotContainsCheck, NumberCheck, RegexCheck
from gent_eval.checks.base import Check, CheckContext, CheckOutcome, numbers_in
from gent_eval.checks.files import FileCheck
from gent_eval.checks.python import PythonCheck
from gent_eval.checks.tools import ResultInAnswerCheck, ToolCalledCheck

__all__ = [
    "BUILTIN_CHECKS",
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

BUILTIN_CHECKS: tuple[type[Check], ...] = (
    ContainsCheck,
    NotContainsCheck,
    RegexCheck,
    NumberCheck,
    ToolCalledCheck,
    ResultInAnswerCheck,
    FileCheck,
    PythonCheck,
)
"""gent-eval's own check kinds; other packages add theirs through the ``gent_eval_checks``
hook (:func:`gent_eval.extensions.check_kinds` lists them all)."""
