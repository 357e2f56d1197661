"""Checks of the tool calls a run made: tool_called, result_in_answer."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import (
    Field,
)

from gent_core.bounds import PatternTimeoutError, search, to_jsonable

if TYPE_CHECKING:
    from gent_core import ToolCallRecord
from gent_eval.checks.base import (
    Check,
    CheckContext,
    CheckOutcome,
    Pattern,
    no_answer_detail,
    numbers_in,
    quote_text,
)


def _matches_text(pattern: str, value: Any) -> bool:
    """Whether ``value`` (text as it is, anything else as JSON) matches ``pattern``."""
    text = value if isinstance(value, str) else json.dumps(to_jsonable(value))
    return search(pattern, text, re.IGNORECASE) is not None


class ToolCalledCheck(Check):
    r"""The run called a tool (successfully, by default), optionally with given arguments or
    returning given values.

    Attributes:
        name: The tool's name.
        args: Arguments the call must have, with exactly these values (others may be there).
        args_match: Arguments whose text must match a regular expression (searched as
            ``re.search`` does, case ignored, with the deadline of
            :func:`gent_core.bounds.compile_pattern`),
            e.g. ``{expression: '144\s*/\s*12'}``.
        result: Values the call's result must have, by dotted path into it, e.g.
            ``{timezone: Asia/Tokyo}``: what the tool did, however the model spelled the
            arguments (a tool that resolves ``Tokyo`` to ``Asia/Tokyo`` passes).
        result_match: Values in the call's result whose text must match a regular expression
            (like ``args_match``), by dotted path.
        succeeded: Only successful calls count (``false``: any call counts).
        min: Fewest matching calls accepted.
        max: Most matching calls accepted (``None``: no limit).
    """

    kind: ClassVar[str] = "tool_called"
    short: ClassVar[str] = "name"

    name: str = Field(min_length=1)
    args: dict[str, Any] = Field(default_factory=dict)
    args_match: dict[str, Pattern] = Field(default_factory=dict)
    result: dict[str, Any] = Field(default_factory=dict)
    result_match: dict[str, Pattern] = Field(default_factory=dict)
    succeeded: bool = True
    min: int = Field(default=1, ge=0)
    max: int | None = Field(default=None, ge=0)

    def _matches(self, call: ToolCallRecord) -> bool:
        for key, expected in self.args.items():
            if key not in call.args or to_jsonable(call.args[key]) != to_jsonable(expected):
                return False
        for key, pattern in self.args_match.items():
            if key not in call.args or not _matches_text(pattern, call.args[key]):
                return False
        output = to_jsonable(call.output)
        for path, expected in self.result.items():
            if to_jsonable(expected) not in list(_field(output, path)):
                return False
        for path, pattern in self.result_match.items():
            if not any(_matches_text(pattern, value) for value in _field(output, path)):
                return False
        return True

    def describe(self) -> str:
        """``called current_time with timezone='UTC'``."""
        text = f"called {self.name}"
        wanted = [f"{key}={value!r}" for key, value in self.args.items()]
        wanted += [f"{key}~/{pattern}/" for key, pattern in self.args_match.items()]
        if wanted:
            text += " with " + ", ".join(wanted)
        returned = [f"{path}={value!r}" for path, value in self.result.items()]
        returned += [f"{path}~/{pattern}/" for path, pattern in self.result_match.items()]
        if returned:
            text += " returning " + ", ".join(returned)
        if self.min != 1 or self.max is not None:
            text += f" ({self.min}..{'' if self.max is None else self.max} times)"
        return text

    def evaluate(self, context: CheckContext) -> CheckOutcome:
        """Count the matching calls."""
        calls = context.calls(self.name, succeeded=True if self.succeeded else None)
        try:
            matching = [call for call in calls if self._matches(call)]
        except PatternTimeoutError as error:
            return self.outcome(False, error.message)
        count = len(matching)
        passed = count >= self.min and (self.max is None or count <= self.max)
        every = context.calls()
        made = "; ".join(
            f"{call.tool}({json.dumps(to_jsonable(call.args), ensure_ascii=False)})"
            f"{'' if call.status == 'success' else ' failed'}"
            for call in every[:6]
        )
        detail = f"{count} matching call(s); calls made: {made or 'none'}"
        return self.outcome(passed, detail)


def _field(value: Any, path: str) -> Iterator[Any]:
    """The value at a dotted path (``a.b.0``) inside a JSON-ready value, if any."""
    current = value
    for part in path.split(".") if path else []:
        if isinstance(current, Mapping) and part in current:
            current = current[part]
        elif isinstance(current, list) and part.isdigit() and int(part) < len(current):
            current = current[int(part)]
        else:
            return
    yield current


class ResultInAnswerCheck(Check):
    """The answer states what a tool returned during the run.

    The value is read from the tool's successful calls (the last one with ``which: last``):
    ``field`` picks a part of a structured result (``datetime``), ``regex`` extracts the part
    to look for (its first group, or the whole match). A number is compared as a number
    (``12.0`` is found in "12"); text is looked for case-insensitively.

    Attributes:
        tool: The tool's name.
        field: A dotted path into the result (``datetime``, ``items.0.name``); empty for the
            whole result.
        regex: Extracts the part to find from the value's text.
        tolerance: Absolute tolerance for numbers.
        which: ``any``: the result of any call counts; ``last``: only the last call's.
    """

    kind: ClassVar[str] = "result_in_answer"
    short: ClassVar[str] = "tool"

    tool: str = Field(min_length=1)
    field: str = ""
    regex: Pattern | None = None
    tolerance: float = Field(default=1e-6, ge=0)
    which: Literal["any", "last"] = "any"

    def describe(self) -> str:
        r"""``answer states current_time's datetime /^(\d{4})/``."""
        part = f"'s {self.field}" if self.field else "'s result"
        extract = f" /{self.regex}/" if self.regex else ""
        return f"answer states {self.tool}{part}{extract}"

    def _wanted(self, output: Any) -> Any:
        """What to look for in the answer, from one call's output (``None``: nothing)."""
        for value in _field(output, self.field):
            if self.regex is None:
                return value
            text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            match = search(self.regex, text)
            if match is None:
                return None
            return match.group(1) if match.re.groups else match.group()
        return None

    def _found(self, wanted: Any, answer: str) -> bool:
        if isinstance(wanted, bool):
            wanted = str(wanted).lower()
        if isinstance(wanted, int | float):
            return any(
                math.isclose(number, float(wanted), abs_tol=self.tolerance)
                for number in numbers_in(answer)
            )
        if not isinstance(wanted, str):
            wanted = json.dumps(wanted, ensure_ascii=False)
        return wanted.strip().casefold() in answer.casefold()

    def evaluate(self, context: CheckContext) -> CheckOutcome:
        """Find a value the tool returned in the answer."""
        if not context.answered:
            return self.outcome(False, no_answer_detail(context))
        calls = context.calls(self.tool, succeeded=True)
        if self.which == "last":
            calls = calls[-1:]
        if not calls:
            return self.outcome(False, f"{self.tool} returned nothing in this run")
        try:
            wanted = [value for call in calls if (value := self._wanted(call.output)) is not None]
        except PatternTimeoutError as error:
            return self.outcome(False, error.message)
        if not wanted:
            where = f"field {self.field!r}" if self.field else "result"
            pattern = f" matching /{self.regex}/" if self.regex else ""
            return self.outcome(False, f"no {self.tool} {where}{pattern} in this run")
        passed = any(self._found(value, context.answer_text) for value in wanted)
        shown = ", ".join(repr(value) for value in wanted[:3])
        return self.outcome(passed, f"{quote_text(context.answer_text)} lacks {shown}")
