"""What each bound of a run accepts: the one rule that :class:`~gent_core.context.Limits`
checks when it is made and that the configuration's ``max_steps``, ``timeouts:`` and
``limits:`` keys are validated with (:mod:`gent_core._config.models` builds its types from
these rules), so ``Limits(max_steps=0)`` and ``max_steps: 0`` are refused alike.

A count is an integer (never ``True``/``False``) at least its minimum; seconds are a finite
number greater than 0; an optional bound may also be ``None`` (no limit).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

__all__ = ["COUNT", "LIMIT_RULES", "SECONDS", "TRIES", "LimitRule", "check_limit"]


@dataclass(frozen=True)
class LimitRule:
    """What one bound accepts.

    Attributes:
        integer: A count (an ``int``), else seconds (a finite number).
        minimum: The smallest value accepted (counts), or the bound values must exceed
            (seconds).
        optional: Whether ``None`` (no limit) is accepted.
    """

    integer: bool
    minimum: float
    optional: bool = False

    @property
    def accepted(self) -> str:
        """In words: ``an integer >= 1``, ``a number > 0 or None``."""
        text = (
            f"an integer >= {self.minimum:g}"
            if self.integer
            else f"a finite number > {self.minimum:g}"
        )
        return text + (" or None" if self.optional else "")

    def bounds(self) -> dict[str, Any]:
        """The bounds as pydantic ``Field`` arguments (``ge=1``; ``gt=0`` for seconds)."""
        if self.integer:
            return {"ge": int(self.minimum)}
        return {"gt": self.minimum, "allow_inf_nan": False}

    def problem(self, value: object) -> type[TypeError] | type[ValueError] | None:
        """``TypeError`` when ``value`` is not of the accepted type, ``ValueError`` when it is
        out of range, ``None`` when it is accepted.
        """
        if value is None:
            return None if self.optional else TypeError
        if isinstance(value, bool):
            return TypeError
        if self.integer:
            if not isinstance(value, int):
                return TypeError
            return None if value >= self.minimum else ValueError
        if not isinstance(value, int | float):
            return TypeError
        return None if math.isfinite(value) and value > self.minimum else ValueError


COUNT = LimitRule(integer=True, minimum=1)
"""A count of at least 1 (steps, characters, calls)."""
TRIES = LimitRule(integer=True, minimum=0)
"""A count that may be 0 (repairs)."""
SECONDS = LimitRule(integer=False, minimum=0)
"""Seconds: a finite number > 0."""

LIMIT_RULES: dict[str, LimitRule] = {
    "max_steps": COUNT,
    "tool_timeout": SECONDS,
    "model_timeout": replace(SECONDS, optional=True),
    "model_idle_timeout": replace(SECONDS, optional=True),
    "max_output_chars": COUNT,
    "max_tool_output_chars": COUNT,
    "max_recorded_output_chars": COUNT,
    "max_consecutive_format_errors": COUNT,
    "max_consecutive_tool_errors": COUNT,
    "max_calls_per_action": COUNT,
    "max_clipboard_chars": COUNT,
    "max_repairs": TRIES,
    "max_model_calls": replace(COUNT, optional=True),
    "max_repeated_failures": COUNT,
}
"""The rule of every field of :class:`~gent_core.context.Limits`, by field name (the
configuration's types are made of :data:`COUNT`, :data:`TRIES` and :data:`SECONDS`, ``| None``
where the rule is optional)."""


def check_limit(name: str, value: object) -> None:
    """Refuse ``value`` for the bound ``name`` unless its rule accepts it.

    Raises:
        TypeError: ``value`` is not of the accepted type (``"3"``, ``True``, ``2.5`` for a
            count), naming the argument and what is accepted.
        ValueError: ``value`` is out of range (``0`` steps, ``-1`` seconds, ``nan``).
    """
    rule = LIMIT_RULES[name]
    kind = rule.problem(value)
    if kind is None:
        return
    shown = f"{value!r} ({type(value).__name__})" if kind is TypeError else repr(value)
    raise kind(f"Limits({name}=...): expected {rule.accepted}, got {shown}")
