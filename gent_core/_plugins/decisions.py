"""What a ``gent_before_tool_call`` hook may decide about a tool call."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from gent_core.toolchain import ToolCall

__all__ = ["ToolCallDecision"]


@dataclass(frozen=True)
class ToolCallDecision:
    """A hook's verdict on a tool call.

    Attributes:
        action: ``"allow"`` runs the call (``call`` replaces it when given); ``"deny"`` does
            not run it and the model reads ``reason``.
        reason: Why the call was denied (shown to the model).
        call: A replacement call, for ``"allow"``.
    """

    action: Literal["allow", "deny"]
    reason: str = ""
    call: ToolCall | None = None

    @classmethod
    def allow(cls, call: ToolCall | None = None) -> ToolCallDecision:
        """Allow the call, optionally replacing it with ``call``."""
        return cls("allow", call=call)

    @classmethod
    def deny(cls, reason: str) -> ToolCallDecision:
        """Deny the call; ``reason`` is shown to the model."""
        return cls("deny", reason=reason)
