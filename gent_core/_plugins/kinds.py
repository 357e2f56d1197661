"""The kinds of component a plugin supplies, in the order they are listed.

Its own module so that listing components (``gent plugins``) needs neither the plugin
manager nor the registry.
"""

from __future__ import annotations

from typing import Literal

__all__ = ["KINDS", "ComponentKind"]

ComponentKind = Literal[
    "format", "toolchain", "termination", "tool", "model", "toolset", "middleware", "command"
]
"""The kinds of component a plugin registers (the registry's sections)."""

KINDS: tuple[ComponentKind, ...] = (
    "format",
    "toolchain",
    "termination",
    "tool",
    "model",
    "toolset",
    "middleware",
    "command",
)
"""Every component kind, in the order they are listed."""
