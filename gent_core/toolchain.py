"""The :class:`ToolChain` contract: the action section that reads tool calls and runs them."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gent_core.messages import ContentPart, ImagePart, TextPart

if TYPE_CHECKING:
    from gent_core.context import ExecutionContext
    from gent_core.errors import GentError
    from gent_core.formats import TextFormat
    from gent_core.tools.base import Tool
    from gent_core.tools.result import ToolResult

__all__ = ["ToolCall", "ToolChain", "ToolChainResult"]


@dataclass(frozen=True)
class ToolCall:
    """One tool call read from the action section.

    Attributes:
        tool: The tool name as the model wrote it.
        args: The arguments as the model wrote them (before validation).
        id: An identifier unique within the step (``"call_0"``...), or a native call id.
    """

    tool: str
    args: dict[str, Any] = field(default_factory=dict)
    id: str = ""


@dataclass
class ToolChainResult:
    """What executing one action section produced.

    Attributes:
        text: The observation text (tool sections inside the observation wrapper), or ``""``
            when there were no calls.
        media: Media from every tool, in call order.
        calls: The parsed calls, in order.
        results: One result per call, in call order (errors are error results).
        errors: One entry per call: the error, or ``None`` for a successful call.
    """

    text: str = ""
    media: list[ImagePart] = field(default_factory=list)
    calls: list[ToolCall] = field(default_factory=list)
    results: list[ToolResult] = field(default_factory=list)
    errors: list[GentError | None] = field(default_factory=list)

    @property
    def clipboard_text(self) -> list[str]:
        """Clipboard texts from every result, in call order."""
        return [text for result in self.results for text in result.clipboard_text]

    @property
    def clipboard_files(self) -> list[Path]:
        """Clipboard files from every result, in call order."""
        return [path for result in self.results for path in result.clipboard_files]

    @property
    def all_failed(self) -> bool:
        """Whether there was at least one call and every call failed."""
        return bool(self.calls) and all(error is not None for error in self.errors)

    def as_content_parts(self) -> list[ContentPart]:
        """Return the observation as message parts: the text, then the media."""
        parts: list[ContentPart] = [TextPart(self.text)] if self.text else []
        parts.extend(self.media)
        return parts


class ToolChain(ABC):
    """A section (default name ``action``) whose content holds tool calls.

    A tool chain lists its tools in the prompt (:attr:`guidance`), reads calls from the
    section's text (:meth:`parse`) and runs them (:meth:`execute`).

    Args:
        tools: The tools the model may call.
        section_name: The section the calls are written in.
    """

    def __init__(self, tools: Sequence[Tool] = (), *, section_name: str = "action") -> None:
        self._section_name = section_name
        self._tools: dict[str, Tool] = {}
        for tool in tools:
            self.add_tool(tool)

    @property
    def name(self) -> str:
        """The section name (``"action"``)."""
        return self._section_name

    @property
    def tools(self) -> tuple[Tool, ...]:
        """The tools, in the order they were added."""
        return tuple(self._tools.values())

    def add_tool(self, tool: Tool) -> ToolChain:
        """Add ``tool`` (replacing a tool of the same name); returns ``self``."""
        self._tools[tool.name] = tool
        return self

    def get_tool(self, name: str) -> Tool | None:
        """Return the tool called ``name``, or ``None``."""
        return self._tools.get(name)

    @property
    @abstractmethod
    def guidance(self) -> str:
        """Prompt text: the call syntax and every tool with its argument schema."""

    @abstractmethod
    def parse(self, content: str) -> list[ToolCall]:
        """Read the calls in ``content`` (an empty list when there are none).

        Raises:
            ParseError: A subclass saying what was wrong (invalid JSON/YAML, missing tool
                name, a call that was cut off...), with a model-facing message.
        """

    @abstractmethod
    async def execute(
        self, content: str, format: TextFormat, context: ExecutionContext
    ) -> ToolChainResult:
        """Parse ``content``, run the calls concurrently and format the observation.

        Per-call errors (unknown tool, invalid arguments, exception, timeout) become error
        results and observation text; they are not raised.

        Raises:
            ParseError: When ``content`` cannot be read as calls at all.
        """
