"""The :class:`Tool` contract: a named, described, schema-checked callable for the model."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gent_core.context import ExecutionContext
    from gent_core.tools.result import ToolResult

__all__ = ["Tool"]


class Tool(ABC):
    """A tool the model can call.

    Attributes:
        name: The name the model writes to call the tool.
        description: What the tool does, for the model.
        timeout: Seconds a call may take; ``None`` uses the run's default.
        writes: Whether the tool changes anything outside the run (files, repositories,
            remote state). An agent configured from a file accepts such a tool only when its
            config says ``allow_writes: true``.
    """

    name: str
    description: str = ""
    timeout: float | None = None
    writes: bool = False

    @property
    @abstractmethod
    def parameters(self) -> dict[str, Any]:
        """The JSON Schema (an ``object`` schema) of the tool's arguments."""

    @abstractmethod
    def validate_arguments(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Check and coerce the model's arguments against :attr:`parameters`.

        Raises:
            InvalidToolArgumentsError: Naming each bad argument and what is accepted.
        """

    @abstractmethod
    async def call(self, arguments: Mapping[str, Any], context: ExecutionContext) -> ToolResult:
        """Run the tool with already validated ``arguments``.

        Sync work must not block the event loop; exceptions may propagate (the tool chain
        turns them into error results).
        """

    def to_llm_schema(self) -> dict[str, Any]:
        """Return the OpenAI function-calling description of the tool."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
