"""Tool approval policies: allow, deny or ask before a tool runs, by tool name.

A policy is a plugin object implementing ``gent_before_tool_call``; the agent registers it for
the duration of a run. Patterns are shell-style (``fnmatch``): ``"write_*"``.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Sequence
from typing import Literal

from gent_core._plugins.decisions import ToolCallDecision
from gent_core.context import ExecutionContext
from gent_core.hookspecs import hookimpl
from gent_core.toolchain import ToolCall
from gent_core.tools.base import Tool

__all__ = ["ApprovalPolicy", "Verdict"]

Verdict = Literal["allow", "deny", "ask"]


class ApprovalPolicy:
    """Decides per tool name whether a call runs.

    Deny patterns win over ask patterns, which win over allow patterns; a name matching none
    gets ``default``.

    Args:
        allow: Patterns of tools that run without asking.
        deny: Patterns of tools that never run.
        ask: Patterns of tools that run only when ``ask`` approves.
        default: The verdict for names matching no pattern.
        ask_callback: Called with the call for ``"ask"`` verdicts; returns whether to run it.
            Without one, calls that need approval are denied.
    """

    def __init__(
        self,
        *,
        allow: Sequence[str] = (),
        deny: Sequence[str] = (),
        ask: Sequence[str] = (),
        default: Verdict = "allow",
        ask_callback: Callable[[ToolCall], bool] | None = None,
    ) -> None:
        self.allow = tuple(allow)
        self.deny = tuple(deny)
        self.ask = tuple(ask)
        self.default: Verdict = default
        self.ask_callback = ask_callback

    def verdict(self, tool_name: str) -> Verdict:
        """Return the verdict for ``tool_name``."""
        for patterns, verdict in ((self.deny, "deny"), (self.ask, "ask"), (self.allow, "allow")):
            if any(fnmatch.fnmatchcase(tool_name, pattern) for pattern in patterns):
                return verdict  # type: ignore[return-value]
        return self.default

    @hookimpl
    def gent_before_tool_call(
        self, call: ToolCall, tool: Tool | None, context: ExecutionContext
    ) -> ToolCallDecision | None:
        """Deny calls the policy refuses; ask about the others that need approval."""
        verdict = self.verdict(call.tool)
        if verdict == "allow":
            return None
        if verdict == "deny":
            return ToolCallDecision.deny(
                f"The tool {call.tool!r} is not allowed in this run. Use another tool or answer."
            )
        if self.ask_callback is None:
            return ToolCallDecision.deny(
                f"The tool {call.tool!r} needs approval and no one can approve it in this run."
            )
        if self.ask_callback(call):
            return None
        return ToolCallDecision.deny(f"The user did not approve this call of {call.tool!r}.")
