"""Identifiers for the tool calls read from text."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["CallIds"]


class CallIds:
    """Gives ``call_0``, ``call_1``... skipping ids already used in the conversation.

    Args:
        prefix: What every id starts with.
        taken: Ids that must not be given (the conversation's own call ids).
    """

    def __init__(self, prefix: str = "call_", taken: Iterable[str] = ()) -> None:
        self.prefix = prefix
        self._taken = set(taken)
        self._next = 0

    def new(self) -> str:
        """Return a fresh id."""
        while True:
            candidate = f"{self.prefix}{self._next}"
            self._next += 1
            if candidate not in self._taken:
                self._taken.add(candidate)
                return candidate
