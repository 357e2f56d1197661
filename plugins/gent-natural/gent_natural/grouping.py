"""Split a conversation into tool turns and pair each tool result with its call.

A **tool turn** starts at an assistant (or tool) message and runs over the assistant and tool
messages that follow, up to the next user or system message; it is transformed when it holds
tool calls or tool results. Results pair with calls by id, then by position: a result whose
id matches no call answers the earliest unanswered call before it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from gent_core.messages import Message, MessageToolCall

__all__ = ["CallPair", "MessageGroup", "TurnError", "TurnStep", "group_messages", "pair_turn"]


class TurnError(ValueError):
    """A tool turn that cannot be written as text (it passes through unchanged)."""


@dataclass(frozen=True)
class MessageGroup:
    """Consecutive messages of a conversation.

    Attributes:
        messages: The messages, in order.
        start: The index of the first one in the conversation.
        tool_turn: Whether this is a tool turn (it holds tool calls or results).
    """

    messages: tuple[Message, ...]
    start: int
    tool_turn: bool


@dataclass(frozen=True)
class CallPair:
    """A call and the message answering it (``None``: no result was recorded)."""

    call: MessageToolCall
    result: Message | None


@dataclass(frozen=True)
class TurnStep:
    """One assistant message of a tool turn, with its calls paired with their results."""

    message: Message
    pairs: tuple[CallPair, ...]


def _uses_tools(messages: Sequence[Message]) -> bool:
    return any(message.tool_calls or message.role == "tool" for message in messages)


def group_messages(messages: Sequence[Message]) -> list[MessageGroup]:
    """Split ``messages`` into tool turns and single messages that pass through."""
    groups: list[MessageGroup] = []
    turn: list[Message] = []
    turn_start = 0

    def end_turn() -> None:
        if not turn:
            return
        if _uses_tools(turn):
            groups.append(MessageGroup(tuple(turn), turn_start, True))
        else:
            groups.extend(
                MessageGroup((message,), turn_start + offset, False)
                for offset, message in enumerate(turn)
            )
        turn.clear()

    for index, message in enumerate(messages):
        if message.role in ("assistant", "tool"):
            if not turn:
                turn_start = index
            turn.append(message)
            continue
        end_turn()
        groups.append(MessageGroup((message,), index, False))
    end_turn()
    return groups


def pair_turn(group: MessageGroup) -> list[TurnStep]:
    """Pair every result of ``group`` with a call.

    Raises:
        TurnError: A result answers no call (it comes before every call, or every call before
            it is already answered), naming the message.
    """
    calls: list[MessageToolCall] = []
    results: list[Message | None] = []
    steps: list[tuple[Message, int, int]] = []  # message, first call, end of its calls
    unanswered: dict[str, deque[int]] = {}  # call id -> its unanswered calls, in order
    unmatched: list[tuple[int, Message, int]] = []  # index, result, calls seen before it
    for offset, message in enumerate(group.messages):
        if message.role != "tool":
            first = len(calls)
            for call in message.tool_calls:
                unanswered.setdefault(call.id, deque()).append(len(calls))
                calls.append(call)
                results.append(None)
            steps.append((message, first, len(calls)))
            continue
        waiting = unanswered.get(message.tool_call_id or "")
        if message.tool_call_id is not None and waiting:
            results[waiting.popleft()] = message
        else:
            unmatched.append((group.start + offset, message, len(calls)))
    cursor = 0
    for index, message, seen in unmatched:
        while cursor < seen and results[cursor] is not None:
            cursor += 1
        if cursor >= seen:
            answered = "no call" if seen == 0 else "no unanswered call"
            raise TurnError(
                f"the tool result at message {index} (tool_call_id "
                f"{message.tool_call_id!r}) answers {answered}"
            )
        results[cursor] = message
    return [
        TurnStep(
            message,
            tuple(CallPair(calls[n], results[n]) for n in range(first, end)),
        )
        for message, first, end in steps
    ]
