"""The :class:`ToolChain` contract: the action section that reads tool calls and runs them."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gent_core.messages import ContentPart, ImagePart, TextPart

if TYPE_CHECKING:
    from gent_core._grammar.builder import GrammarBuilder
    from gent_core.errors import GentError
    from gent_core.tools.base import Tool
    from gent_core.tools.result import ToolResult

__all__ = ["ToolCall", "ToolChain", "ToolChainResult", "has_toolchain"]


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

    A tool chain lists its tools in the prompt (:attr:`guidance`) and reads calls from the
    section's text (:meth:`parse`). A subclass supplies the
    call language, and everything gent needs to prompt and constrain a model in it:

    * :attr:`guidance` and :meth:`parse` (required);
    * :meth:`format_calls`, the exact inverse of :meth:`parse` (required): prompt examples
      and few-shot examples are written with it;
    * :meth:`example_calls` (a default from the tools' schemas), :meth:`grammar_calls`
      (``None`` by default: the section is then unconstrained) and :meth:`format_output`
      (how a tool's raw output is written; JSON by default).

    Running the calls is not the chain's job: the execution engine does it the same way for
    every chain (:func:`gent_core._execution.execute_action`, which parses the section with
    :meth:`parse` and renders each result with :meth:`format_output`). The conformance kit
    (:class:`gent_core.testing.ChainConformance`) checks a chain against this contract.

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

    def remove_tool(self, name: str) -> Tool | None:
        """Remove the tool called ``name``; return it, or ``None`` when there was none."""
        return self._tools.pop(name, None)

    def with_tools(self, tools: Sequence[Tool]) -> ToolChain:
        """A shallow copy of this chain offering only ``tools`` (its options and syntax
        unchanged); this chain is not changed. The agent uses it to ask for one call of one
        tool (a repair) under that tool's grammar.
        """
        import copy

        narrowed = copy.copy(self)
        narrowed._tools = {tool.name: tool for tool in tools}
        return narrowed

    def get_tool(self, name: str) -> Tool | None:
        """Return the tool called ``name``, or ``None``."""
        return self._tools.get(name)

    def describe_tools(self) -> str:
        """Every tool on one line each (``- name(arguments) — description``), for guidance."""
        from gent_core.tools._describe import describe_tools

        return describe_tools(self.tools)

    def format_output(self, output: Any) -> str:
        """Write a tool's raw output as observation text.

        The default keeps a string as it is and writes anything else as compact JSON
        (pydantic models, dataclasses, dates, paths and sets included). Chains override it
        to write their own language (YAML...).

        Raises:
            Exception: When ``output`` cannot be written; the call becomes an error result.
        """
        if isinstance(output, str):
            return output
        from gent_core._serialize import dumps_json

        return dumps_json(output)

    @property
    @abstractmethod
    def guidance(self) -> str:
        """Prompt text: the call syntax and every tool with its argument schema."""

    @abstractmethod
    def parse(self, content: str) -> list[ToolCall]:
        """Read the calls in ``content`` (an empty list when there are none).

        ``content`` is the section's text as the model wrote it, untrimmed (see
        :attr:`ParsedSection.raw <gent_core.sections.ParsedSection.raw>`): whitespace around
        it is the format's and may be ignored, but a syntax where line ends matter (YAML
        block scalars) reads them as written.

        Raises:
            ParseError: A subclass saying what was wrong (invalid JSON/YAML, missing tool
                name, a call that was cut off...), with a model-facing message.
        """

    @abstractmethod
    def format_calls(self, calls: Sequence[ToolCall]) -> str:
        """Write ``calls`` in this chain's syntax, as the model should write them.

        The exact inverse of :meth:`parse`: ``parse(format_calls(calls))`` gives back the same
        tool names and arguments, in order (ids may be renumbered). Prompt guidance and
        few-shot examples are written with it, so a model sees the chain's own syntax.

        Raises:
            ValueError: When a call cannot be written in this syntax.
        """

    def example_calls(self) -> list[ToolCall]:
        """Example calls for the prompt's guidance and few-shot examples.

        The default gives up to two calls of different tools, tools with arguments first, with
        concrete argument values valid for each tool's schema (never placeholders; see
        :mod:`gent_core._schema_examples`), and no call without tools. The first call is the
        one a single-call example shows.
        """
        from gent_core._schema_examples import example_calls

        return [
            ToolCall(name, arguments, f"call_{index}")
            for index, (name, arguments) in enumerate(example_calls(self.tools))
        ]

    def grammar_calls(self, builder: GrammarBuilder) -> str | None:
        """Return the GBNF expression of this section's content (the calls, limited to
        :attr:`tools` and their argument schemas), adding helper rules to ``builder``.

        Quoted values must never contain the texts in ``builder.avoid`` (the format's
        delimiters); :class:`~gent_core._grammar.JSONSchemaConverter` takes care of it for
        argument values. Bound what can safely be bounded (calls per action:
        ``repeat_calls(call, separator, max_calls=builder.max_calls)``, the agent's
        ``limits.max_calls_per_action``).

        The default ``None`` leaves the section unconstrained (any text that cannot close it)
        and ``gent describe`` says so.
        """
        return None


def has_toolchain(sections: Sequence[object]) -> bool:
    """Whether any of ``sections`` is a :class:`ToolChain` (a section whose content holds
    tool calls).

    A :class:`~gent_core.formats.TextFormat` asks it in ``describe`` to decide whether to
    tell the model never to write the observation section itself (tool results come back in
    one only when there are tools).
    """
    return any(isinstance(section, ToolChain) for section in sections)
