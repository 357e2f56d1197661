"""What reading text into native messages reports, event by event, while it streams."""

from __future__ import annotations

from dataclasses import dataclass

from gent_core.messages import Message, MessageToolCall

__all__ = ["MessageReady", "NaturalEvent", "ProseDelta", "ToolCallRead", "ToolResponseRead"]


@dataclass(frozen=True)
class ProseDelta:
    """Text that is certainly not part of a call or response (released at once)."""

    text: str


@dataclass(frozen=True)
class ToolCallRead:
    """A call was read.

    Attributes:
        call: The call, with a generated id.
        problem: Why it cannot run as written (bad JSON, unknown tool, invalid arguments),
            or ``None``.
    """

    call: MessageToolCall
    problem: str | None = None


@dataclass(frozen=True)
class ToolResponseRead:
    """A response was read and linked to its call: the ``role: tool`` message."""

    message: Message


@dataclass(frozen=True)
class MessageReady:
    """A native message is complete (assistant messages, then the tool messages answering
    their calls, in conversation order).
    """

    message: Message


NaturalEvent = ProseDelta | ToolCallRead | ToolResponseRead | MessageReady
