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

import importlib
import json
import math
import re
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    field_validator,
)

from gent_core.serialize import to_jsonable

if TYPE_CHECKING:
    from gent_core.agent.records import RunResult, ToolCallRecord

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

_NUMBER = re.compile(
    r"(?<![\w.])(?:-\s?)?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w])"
    r"|(?<![\w.])-?\.\d+(?![\w])"
)


def numbers_in(text: str) -> list[float]:
    """Every number written in ``text``, in order.

    Thousands separators (``1,234``) and a leading minus (``-5``, not the ``-`` of ``5-3``)
    are understood; ``3.0`` and ``3`` are the same number.
    """
    values = []
    for match in _NUMBER.finditer(text):
        written = match.group().replace(",", "").replace(" ", "")
        try:
            values.append(float(written))
        except ValueError:  # pragma: no cover - the pattern only matches numbers
            continue
    return values


@dataclass(frozen=True)
class CheckOutcome:
    """The verdict of one check on one run.

    Attributes:
        check: What was checked, in words (``answer contains '12'``).
        passed: Whether the run passed it.
        detail: Why it failed (empty when it passed).
    """

    check: str
    passed: bool
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {"check": self.check, "passed": self.passed, "detail": self.detail}


@dataclass(frozen=True)
class CheckContext:
    """What a check may read about a finished run.

    Attributes:
        task_text: The task as given to the agent.
        result: The run's result (answer, stop reason, steps with their tool calls).
        working_directory: The directory the run's tools worked in.
    """

    task_text: str
    result: RunResult
    working_directory: Path

    @property
    def answered(self) -> bool:
        """Whether the run ended with an answer."""
        return self.result.ok

    @property
    def answer_text(self) -> str:
        """The answer as text (JSON for a structured answer; empty without an answer)."""
        answer = self.result.answer
        if answer is None or not self.result.ok:
            return ""
        if isinstance(answer, str):
            return answer
        return json.dumps(to_jsonable(answer), ensure_ascii=False)

    def calls(
        self, tool: str | None = None, *, succeeded: bool | None = None
    ) -> list[ToolCallRecord]:
        """The run's tool calls, in order.

        Args:
            tool: Only the calls of this tool.
            succeeded: ``True``: only successful calls; ``False``: only failed ones.
        """
        found = []
        for step in self.result.steps:
            for call in step.calls:
                if tool is not None and call.tool != tool:
                    continue
                if succeeded is not None and (call.status == "success") != succeeded:
                    continue
                found.append(call)
        return found


def _quote(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _no_answer(context: CheckContext) -> str:
    return f"the run gave no answer (it stopped: {context.result.stop_reason})"


class Check(BaseModel, ABC):
    """One kind of check: its options (the model's fields) and how it judges a run.

    Attributes:
        kind: The key that names the kind in a suite (``contains``).
        short: The option a short form sets (``- contains: "12"`` sets ``text``).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: ClassVar[str]
    short: ClassVar[str]

    @abstractmethod
    def evaluate(self, context: CheckContext) -> CheckOutcome:
        """Judge the run described by ``context``."""

    @abstractmethod
    def describe(self) -> str:
        """What the check requires, in words."""

    def outcome(self, passed: bool, detail: str = "") -> CheckOutcome:
        """A :class:`CheckOutcome` of this check."""
        return CheckOutcome(self.describe(), passed, "" if passed else detail)


def _as_list(value: Any) -> Any:
    return [value] if isinstance(value, str) else value


_Texts = Annotated[list[str], BeforeValidator(_as_list)]
"""One text or a list of texts."""


def _compiles(value: str) -> str:
    try:
        re.compile(value)
    except re.error as error:
        raise ValueError(f"invalid regular expression {value!r}: {error}") from None
    return value


_Pattern = Annotated[str, AfterValidator(_compiles)]
"""A regular expression (Python syntax), checked when the suite loads."""


class ContainsCheck(Check):
    """The answer contains every given text (or any of them, with ``any: true``).

    Attributes:
        text: The texts to find.
        any: Pass when one of the texts is found.
        case_sensitive: Compare case (by default case is ignored).
    """

    kind: ClassVar[str] = "contains"
    short: ClassVar[str] = "text"

    text: _Texts = Field(min_length=1)
    any: bool = False
    case_sensitive: bool = False

    def _found(self, answer: str) -> list[bool]:
        if not self.case_sensitive:
            answer = answer.casefold()
        return [(text if self.case_sensitive else text.casefold()) in answer for text in self.text]

    def describe(self) -> str:
        """``answer contains '12'``."""
        joiner = " or " if self.any else " and "
        return "answer contains " + joiner.join(repr(text) for text in self.text)

    def evaluate(self, context: CheckContext) -> CheckOutcome:
        """Look for the texts in the answer."""
        if not context.answered:
            return self.outcome(False, _no_answer(context))
        found = self._found(context.answer_text)
        passed = any(found) if self.any else all(found)
        missing = [text for text, hit in zip(self.text, found, strict=True) if not hit]
        return self.outcome(
            passed, f"{_quote(context.answer_text)} lacks {', '.join(map(repr, missing))}"
        )


class NotContainsCheck(Check):
    """The answer contains none of the given texts (case ignored unless asked).

    Attributes:
        text: The texts that must not appear.
        case_sensitive: Compare case.
    """

    kind: ClassVar[str] = "not_contains"
    short: ClassVar[str] = "text"

    text: _Texts = Field(min_length=1)
    case_sensitive: bool = False

    def describe(self) -> str:
        """``answer does not contain '42'``."""
        return "answer does not contain " + " or ".join(repr(text) for text in self.text)

    def evaluate(self, context: CheckContext) -> CheckOutcome:
        """Look for the forbidden texts in the answer."""
        if not context.answered:
            return self.outcome(False, _no_answer(context))
        answer = context.answer_text
        if not self.case_sensitive:
            answer = answer.casefold()
        present = [
            text
            for text in self.text
            if (text if self.case_sensitive else text.casefold()) in answer
        ]
        return self.outcome(
            not present,
            f"{_quote(context.answer_text)} contains {', '.join(map(repr, present))}",
        )


class RegexCheck(Check):
    """The answer matches a regular expression (``re.search``; case ignored unless asked).

    Attributes:
        pattern: The regular expression (Python syntax).
        case_sensitive: Match case.
    """

    kind: ClassVar[str] = "regex"
    short: ClassVar[str] = "pattern"

    pattern: _Pattern
    case_sensitive: bool = False

    def describe(self) -> str:
        """``answer matches /.../``."""
        return f"answer matches /{self.pattern}/"

    def evaluate(self, context: CheckContext) -> CheckOutcome:
        """Search the answer."""
        if not context.answered:
            return self.outcome(False, _no_answer(context))
        flags = 0 if self.case_sensitive else re.IGNORECASE
        found = re.search(self.pattern, context.answer_text, flags) is not None
        return self.outcome(found, f"{_quote(context.answer_text)} does not match")


class NumberCheck(Check):
    """A number in the answer equals ``value`` within a tolerance.

    Attributes:
        value: The expected number.
        tolerance: Largest absolute difference accepted.
        relative: Largest relative difference accepted (``0.01`` = 1%), if any.
        which: ``any``: some number in the answer matches; ``last``: the last one must.
    """

    kind: ClassVar[str] = "number"
    short: ClassVar[str] = "value"

    value: float
    tolerance: float = Field(default=1e-6, ge=0)
    relative: float | None = Field(default=None, ge=0)
    which: Literal["any", "last"] = "any"

    def describe(self) -> str:
        """``answer has the number 12 (+/- 1e-06)``."""
        shown = int(self.value) if self.value.is_integer() else self.value
        margin = f"{self.relative:.0%}" if self.relative else f"{self.tolerance:g}"
        return f"answer has the number {shown} (+/- {margin})"

    def evaluate(self, context: CheckContext) -> CheckOutcome:
        """Compare the answer's numbers with ``value``."""
        if not context.answered:
            return self.outcome(False, _no_answer(context))
        numbers = numbers_in(context.answer_text)
        if self.which == "last":
            numbers = numbers[-1:]
        passed = any(
            math.isclose(number, self.value, rel_tol=self.relative or 0.0, abs_tol=self.tolerance)
            for number in numbers
        )
        seen = ", ".join(f"{number:g}" for number in numbers) or "no number"
        return self.outcome(passed, f"{_quote(context.answer_text)} has {seen}")


class ToolCalledCheck(Check):
    r"""The run called a tool (successfully, by default), optionally with given arguments.

    Attributes:
        name: The tool's name.
        args: Arguments the call must have, with exactly these values (others may be there).
        args_match: Arguments whose text must match a regular expression (``re.search``,
            case ignored), e.g. ``{expression: '144\s*/\s*12'}``.
        succeeded: Only successful calls count (``false``: any call counts).
        min: Fewest matching calls accepted.
        max: Most matching calls accepted (``None``: no limit).
    """

    kind: ClassVar[str] = "tool_called"
    short: ClassVar[str] = "name"

    name: str = Field(min_length=1)
    args: dict[str, Any] = Field(default_factory=dict)
    args_match: dict[str, _Pattern] = Field(default_factory=dict)
    succeeded: bool = True
    min: int = Field(default=1, ge=0)
    max: int | None = Field(default=None, ge=0)

    def _matches(self, call: ToolCallRecord) -> bool:
        for key, expected in self.args.items():
            if key not in call.args or to_jsonable(call.args[key]) != to_jsonable(expected):
                return False
        for key, pattern in self.args_match.items():
            if key not in call.args:
                return False
            value = call.args[key]
            text = value if isinstance(value, str) else json.dumps(to_jsonable(value))
            if re.search(pattern, text, re.IGNORECASE) is None:
                return False
        return True

    def describe(self) -> str:
        """``called current_time with timezone='UTC'``."""
        text = f"called {self.name}"
        wanted = [f"{key}={value!r}" for key, value in self.args.items()]
        wanted += [f"{key}~/{pattern}/" for key, pattern in self.args_match.items()]
        if wanted:
            text += " with " + ", ".join(wanted)
        if self.min != 1 or self.max is not None:
            text += f" ({self.min}..{'' if self.max is None else self.max} times)"
        return text

    def evaluate(self, context: CheckContext) -> CheckOutcome:
        """Count the matching calls."""
        calls = context.calls(self.name, succeeded=True if self.succeeded else None)
        matching = [call for call in calls if self._matches(call)]
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
    regex: _Pattern | None = None
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
            match = re.search(self.regex, text)
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
            return self.outcome(False, _no_answer(context))
        calls = context.calls(self.tool, succeeded=True)
        if self.which == "last":
            calls = calls[-1:]
        if not calls:
            return self.outcome(False, f"{self.tool} returned nothing in this run")
        wanted = [value for call in calls if (value := self._wanted(call.output)) is not None]
        if not wanted:
            where = f"field {self.field!r}" if self.field else "result"
            pattern = f" matching /{self.regex}/" if self.regex else ""
            return self.outcome(False, f"no {self.tool} {where}{pattern} in this run")
        passed = any(self._found(value, context.answer_text) for value in wanted)
        shown = ", ".join(repr(value) for value in wanted[:3])
        return self.outcome(passed, f"{_quote(context.answer_text)} lacks {shown}")


class FileCheck(Check):
    """A file in the task's working directory exists (or not) and holds given content.

    Attributes:
        path: The file, relative to the working directory.
        exists: Whether the file must exist (``false``: must not).
        contains: Texts the file must contain.
        not_contains: Texts the file must not contain.
        regex: A regular expression the file's text must match (``re.search``).
    """

    kind: ClassVar[str] = "file"
    short: ClassVar[str] = "path"

    path: str = Field(min_length=1)
    exists: bool = True
    contains: _Texts = Field(default_factory=list)
    not_contains: _Texts = Field(default_factory=list)
    regex: _Pattern | None = None

    @field_validator("path")
    @classmethod
    def _relative(cls, value: str) -> str:
        path = Path(value)
        if path.is_absolute() or ".." in path.parts:
            raise ValueError(
                f"expected a path relative to the task's working directory, got {value!r}"
            )
        return value

    def describe(self) -> str:
        """``file notes.txt contains 'x'``."""
        if not self.exists:
            return f"file {self.path} does not exist"
        text = f"file {self.path} exists"
        if self.contains:
            text += " and contains " + ", ".join(map(repr, self.contains))
        if self.not_contains:
            text += " and lacks " + ", ".join(map(repr, self.not_contains))
        if self.regex:
            text += f" and matches /{self.regex}/"
        return text

    def evaluate(self, context: CheckContext) -> CheckOutcome:
        """Read the file after the run."""
        target = context.working_directory / self.path
        if not self.exists:
            return self.outcome(not target.exists(), "the file exists")
        try:
            text = target.read_text(encoding="utf-8", errors="replace")
        except OSError as error:
            return self.outcome(False, f"cannot read it: {error.strerror or error}")
        missing = [piece for piece in self.contains if piece not in text]
        if missing:
            return self.outcome(False, f"it lacks {', '.join(map(repr, missing))}")
        present = [piece for piece in self.not_contains if piece in text]
        if present:
            return self.outcome(False, f"it still contains {', '.join(map(repr, present))}")
        if self.regex and re.search(self.regex, text) is None:
            return self.outcome(False, f"it does not match /{self.regex}/")
        return self.outcome(True)


CheckFunction = Callable[..., Any]


class PythonCheck(Check):
    """A Python function judges the run: ``module:function``, called with the
    :class:`CheckContext` and ``args`` as keyword arguments.

    The function returns ``True``/``False``, or a :class:`CheckOutcome`, or raises
    ``AssertionError`` with the reason it failed. The suite's directory is importable, so a
    ``checks.py`` next to the suite can be named ``checks:my_function``.

    Attributes:
        function: ``module:function``.
        args: Keyword arguments passed to the function.
    """

    kind: ClassVar[str] = "python"
    short: ClassVar[str] = "function"

    function: str = Field(pattern=r"^[\w.]+:[\w.]+$")
    args: dict[str, Any] = Field(default_factory=dict)

    _callable: CheckFunction | None = PrivateAttr(default=None)

    def resolve(self, search_path: Path | None = None) -> None:
        """Import the function (once), looking in ``search_path`` too.

        Raises:
            ValueError: When the module or the function cannot be found.
        """
        module_name, _, attribute = self.function.partition(":")
        added = search_path is not None and str(search_path) not in sys.path
        if added:
            sys.path.insert(0, str(search_path))
        try:
            target: Any = importlib.import_module(module_name)
        except Exception as error:  # noqa: BLE001 - any import failure is reported
            raise ValueError(
                f"cannot import {module_name!r}: {type(error).__name__}: {error}"
            ) from None
        finally:
            if added:
                sys.path.remove(str(search_path))
        for part in attribute.split("."):
            if not hasattr(target, part):
                raise ValueError(f"{module_name!r} has no attribute {attribute!r}")
            target = getattr(target, part)
        if not callable(target):
            raise ValueError(f"{self.function!r} is not callable")
        self._callable = target

    def describe(self) -> str:
        """``python check pkg.mod:fn``."""
        return f"python check {self.function}"

    def evaluate(self, context: CheckContext) -> CheckOutcome:
        """Call the function; an exception other than ``AssertionError`` fails the check.

        The failure names the exception's type and message.
        """
        if self._callable is None:
            self.resolve()
        assert self._callable is not None
        try:
            verdict = self._callable(context, **self.args)
        except AssertionError as error:
            return self.outcome(False, str(error) or "assertion failed")
        except Exception as error:  # noqa: BLE001 - a broken check fails, named, not the run
            return self.outcome(False, f"the check raised {type(error).__name__}: {error}")
        if isinstance(verdict, CheckOutcome):
            return verdict
        if isinstance(verdict, bool):
            return self.outcome(verdict, "the check returned False")
        return self.outcome(
            False,
            f"the check returned {type(verdict).__name__}; expected True, False or a CheckOutcome",
        )


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
