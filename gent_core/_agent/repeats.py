"""Noticing a tool call the model already made: the same tool, the same arguments, and the
same result as an earlier call of the run.

Small models often call a tool again and again with the arguments they used before (after
reading its result, they write the same action instead of the answer) until the run reaches
its step limit. A call that repeats an earlier one *and* gets the same result told the model
nothing new; the agent then adds a note to the observation naming the earlier result and
saying what to do instead (:func:`gent_core._agent.feedback.repeat_note`). A call whose
result changed (the time, a file that was written in between) gets a milder note: it may
have been wanted (a status polled), but the model is reminded that it already had a result
and may answer.

A model that keeps making the same *failing* call is not helped by more notes: the call that
fails for the ``limits.max_repeated_failures``-th time (3 by default) in a run, with the same
tool and arguments, stops the run after its step (stop reason ``repeated_failure``,
:func:`repeated_failure`), instead of letting it use up every step.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from gent_core._serialize import to_json_data
from gent_core._textscan import quote_start
from gent_core.records import StepRecord, ToolCallRecord

_SHOWN_CHARS = 200

__all__ = ["RepeatedCall", "find_repeats", "repeated_failure", "repeated_failure_message"]


@dataclass(frozen=True)
class RepeatedCall:
    """A call of the current step that repeats an earlier call of the run.

    Attributes:
        call: The call of the current step.
        earlier: The earlier call it repeats (same tool and arguments).
        earlier_step: The step number of the earlier call (the current step's number when
            the same action held it before).
        same_result: Whether the earlier call had the same result (the same output, or the
            same error).
    """

    call: ToolCallRecord
    earlier: ToolCallRecord
    earlier_step: int
    same_result: bool = True


def _key(call: ToolCallRecord) -> str:
    """The call's tool and arguments as one comparable text (key order ignored)."""
    return json.dumps([call.tool, to_json_data(call.args)], sort_keys=True, ensure_ascii=False)


def _same_result(one: ToolCallRecord, other: ToolCallRecord) -> bool:
    """Whether two calls had the same result; an output recorded cut is never known to be."""
    return (
        one.output_chars is None
        and other.output_chars is None
        and one.status == other.status
        and one.error == other.error
        and to_json_data(one.output) == to_json_data(other.output)
    )


def find_repeats(earlier_steps: Iterable[StepRecord], step: StepRecord) -> list[RepeatedCall]:
    """Return the calls of ``step`` that repeat an earlier call of the run: the same tool
    and arguments (as written, key order ignored), in an earlier step or earlier in the same
    action.

    Args:
        earlier_steps: The run's steps before ``step`` (replayed ones included).
        step: The step whose calls just ran.

    Returns:
        One entry per repeating call, in call order: pointing at the first earlier call with
        the same result when there is one (:attr:`RepeatedCall.same_result`), else at the
        latest earlier call.
    """
    seen: dict[str, list[tuple[int, ToolCallRecord]]] = {}
    for done in earlier_steps:
        for call in done.calls:
            seen.setdefault(_key(call), []).append((done.index, call))
    repeats: list[RepeatedCall] = []
    for call in step.calls:
        key = _key(call)
        before = seen.get(key, [])
        match = next((found for found in before if _same_result(found[1], call)), None)
        if match is not None:
            repeats.append(RepeatedCall(call, match[1], match[0]))
        elif before:
            repeats.append(RepeatedCall(call, before[-1][1], before[-1][0], same_result=False))
        seen.setdefault(key, []).append((step.index, call))
    return repeats


def repeated_failure(
    earlier_steps: Iterable[StepRecord], step: StepRecord, limit: int
) -> tuple[ToolCallRecord, int] | None:
    """The first call of ``step`` that failed for the ``limit``-th time (or more) in the run
    with the same tool and arguments (key order ignored), and how often it failed; ``None``
    when no call of ``step`` did.

    Args:
        earlier_steps: The run's steps before ``step`` (replayed ones included).
        step: The step whose calls just ran.
        limit: Failures of one call that stop the run (``limits.max_repeated_failures``).
    """
    failures: dict[str, int] = {}
    for done in [*earlier_steps, step]:
        for call in done.calls:
            if call.status == "error":
                key = _key(call)
                failures[key] = failures.get(key, 0) + 1
    for call in step.calls:
        if call.status == "error" and failures[_key(call)] >= limit:
            return call, failures[_key(call)]
    return None


def repeated_failure_message(call: ToolCallRecord, times: int, limit: int) -> str:
    """Why the run stopped at a repeated failing call, for people: the call (its arguments
    shortened), how often it failed, the limit and the last error.
    """
    arguments = json.dumps(to_json_data(call.args), ensure_ascii=False, sort_keys=True)
    error = call.error or "unknown"
    return (
        f"the model made the same failing call {times} times (limit {limit}, "
        f"limits.max_repeated_failures): {call.tool} {quote_start(arguments, _SHOWN_CHARS)}; "
        f"its error: {quote_start(error, _SHOWN_CHARS)}"
    )
