"""What the checker says about one task's answer: valid, or the kind of failure and why."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

__all__ = ["UNDECODED_AS_NO_CALL", "FailureKind", "Verdict"]

UNDECODED_AS_NO_CALL = (
    "no call: the output could not be decoded, which BFCL counts as no call in irrelevance "
    "categories"
)
"""The message of a valid irrelevance verdict the model did not earn by answering: its output
could not be read at all (cut off, garbled). BFCL accepts it; reports count it apart."""


class FailureKind(str, Enum):
    """Why an answer is not valid.

    The checker (:mod:`gent_bfcl.checker`) gives every kind but the last two, which the
    baseline runner (:mod:`gent_bfcl.runner`) adds for outputs it could not judge.
    """

    NO_CALL = "no_call"
    """No call where one or more were expected (BFCL counts it as a wrong count)."""
    WRONG_COUNT = "wrong_count"
    """Another number of calls than expected."""
    WRONG_FUNCTION = "wrong_function"
    """The expected function was not called (another one was)."""
    MISSING_ARGUMENT = "missing_argument"
    """A required argument, or one the possible answers do not let be left out, is missing."""
    UNEXPECTED_ARGUMENT = "unexpected_argument"
    """An argument the function does not declare, or that no possible answer gives."""
    WRONG_TYPE = "wrong_type"
    """An argument's value has another type than declared (or than its items should have)."""
    WRONG_VALUE = "wrong_value"
    """An argument's value is not among the accepted ones."""
    CALL_MADE = "call_made"
    """Irrelevance: a call was made where none of the functions fits the question."""
    MALFORMED = "malformed"
    """The calls are not in the form ``[{name: {argument: value}}, ...]``."""
    UNPARSABLE = "unparsable"
    """The model's output could not be decoded into calls (runner only)."""
    MODEL_ERROR = "model_error"
    """The model failed before giving an output (runner only)."""


@dataclass(frozen=True)
class Verdict:
    """The checker's judgement of one answer.

    Attributes:
        valid: Whether the answer is accepted.
        kind: Why not (``None`` when valid).
        message: What was wrong, for a person (empty when valid).
    """

    valid: bool
    kind: FailureKind | None = None
    message: str = ""

    @classmethod
    def ok(cls, message: str = "") -> Verdict:
        """An accepted answer (``message``: why, when it is not plain, as
        :data:`UNDECODED_AS_NO_CALL`).
        """
        return cls(True, None, message)

    @property
    def undecoded_no_call(self) -> bool:
        """Valid only because an undecodable output counts as no call (irrelevance)."""
        return self.valid and self.message == UNDECODED_AS_NO_CALL

    @classmethod
    def fail(cls, kind: FailureKind, message: str) -> Verdict:
        """A rejected answer: its failure kind and what was wrong."""
        return cls(False, kind, message)
