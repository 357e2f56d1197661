"""What every check shares: the run a check reads, its verdict, the base class."""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
)

from gent_core.bounds import PatternError, compile_pattern, to_jsonable

if TYPE_CHECKING:
    from gent_core import RunResult, ToolCallRecord


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


def quote_text(text: str, limit: int = 120) -> str:
    """``text`` on one line, cut to ``limit`` characters, quoted (for failure details)."""
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[:limit] + "...")


def no_answer_detail(context: CheckContext) -> str:
    """The failure detail of an answer check on a run that gave no answer."""
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


def as_list(value: Any) -> Any:
    """One text as a list of one (suites may write a single text where a list is accepted)."""
    return [value] if isinstance(value, str) else value


Texts = Annotated[list[str], BeforeValidator(as_list)]
"""One text or a list of texts."""


def compiled_pattern(value: str) -> str:
    """``value`` if it compiles as a regular expression (with
    :func:`gent_core.bounds.compile_pattern`, the engine the checks match with).

    Raises:
        ValueError: Naming the pattern and what is wrong with it.
    """
    try:
        compile_pattern(value)
    except PatternError as error:
        reason = error.syntax_error or error.problem
        raise ValueError(f"invalid regular expression {value!r}: {reason}") from None
    return value


Pattern = Annotated[str, AfterValidator(compiled_pattern)]
"""A regular expression (Python syntax), checked when the suite loads. Checks match it
through :func:`gent_core.bounds.compile_pattern`, with its deadline: a match that runs out of
time fails the check, saying so."""
