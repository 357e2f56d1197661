"""Checks of the answer's text: contains, not_contains, regex, number."""

from __future__ import annotations

import math
import re
from typing import ClassVar, Literal

from pydantic import (
    Field,
)

from gent_core.bounds import PatternTimeoutError, search
from gent_eval.checks.base import (
    Check,
    CheckContext,
    CheckOutcome,
    Pattern,
    Texts,
    no_answer_detail,
    numbers_in,
    quote_text,
)


class ContainsCheck(Check):
    """The answer contains every given text (or any of them, with ``any: true``).

    Attributes:
        text: The texts to find.
        any: Pass when one of the texts is found.
        case_sensitive: Compare case (by default case is ignored).
    """

    kind: ClassVar[str] = "contains"
    short: ClassVar[str] = "text"

    text: Texts = Field(min_length=1)
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
            return self.outcome(False, no_answer_detail(context))
        found = self._found(context.answer_text)
        passed = any(found) if self.any else all(found)
        missing = [text for text, hit in zip(self.text, found, strict=True) if not hit]
        return self.outcome(
            passed, f"{quote_text(context.answer_text)} lacks {', '.join(map(repr, missing))}"
        )


class NotContainsCheck(Check):
    """The answer contains none of the given texts (case ignored unless asked).

    Attributes:
        text: The texts that must not appear.
        case_sensitive: Compare case.
    """

    kind: ClassVar[str] = "not_contains"
    short: ClassVar[str] = "text"

    text: Texts = Field(min_length=1)
    case_sensitive: bool = False

    def describe(self) -> str:
        """``answer does not contain '42'``."""
        return "answer does not contain " + " or ".join(repr(text) for text in self.text)

    def evaluate(self, context: CheckContext) -> CheckOutcome:
        """Look for the forbidden texts in the answer."""
        if not context.answered:
            return self.outcome(False, no_answer_detail(context))
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
            f"{quote_text(context.answer_text)} contains {', '.join(map(repr, present))}",
        )


class RegexCheck(Check):
    """The answer matches a regular expression (searched as ``re.search`` does, with the
    deadline of :func:`gent_core.bounds.compile_pattern`; case ignored unless asked).

    Attributes:
        pattern: The regular expression (Python syntax).
        case_sensitive: Match case.
    """

    kind: ClassVar[str] = "regex"
    short: ClassVar[str] = "pattern"

    pattern: Pattern
    case_sensitive: bool = False

    def describe(self) -> str:
        """``answer matches /.../``."""
        return f"answer matches /{self.pattern}/"

    def evaluate(self, context: CheckContext) -> CheckOutcome:
        """Search the answer."""
        if not context.answered:
            return self.outcome(False, no_answer_detail(context))
        flags = 0 if self.case_sensitive else re.IGNORECASE
        try:
            found = search(self.pattern, context.answer_text, flags) is not None
        except PatternTimeoutError as error:
            return self.outcome(False, error.message)
        return self.outcome(found, f"{quote_text(context.answer_text)} does not match")


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
            return self.outcome(False, no_answer_detail(context))
        numbers = numbers_in(context.answer_text)
        if self.which == "last":
            numbers = numbers[-1:]
        passed = any(
            math.isclose(number, self.value, rel_tol=self.relative or 0.0, abs_tol=self.tolerance)
            for number in numbers
        )
        seen = ", ".join(f"{number:g}" for number in numbers) or "no number"
        return self.outcome(passed, f"{quote_text(context.answer_text)} has {seen}")
