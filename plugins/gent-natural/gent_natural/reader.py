"""Read natural tool use from text as it streams: scanner + assembler (text -> native)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from gent_natural.assemble import MessageAssembler
from gent_natural.events import MessageReady, NaturalEvent
from gent_natural.ids import CallIds
from gent_natural.scanner import ScanEvent, TagScanner

if TYPE_CHECKING:
    from gent_core.formats import TextFormat
    from gent_core.messages import Message
    from gent_core.toolchain import ToolChain
    from gent_core.tools.base import Tool

__all__ = ["Scanner", "TextReader", "read_text", "tools_by_name"]


class Scanner(Protocol):
    """Finds elements in streamed text (:class:`~gent_natural.scanner.TagScanner`, or
    :class:`~gent_natural.sections.SectionScanner` for a gent format's sections).
    """

    def feed(self, chunk: str) -> list[ScanEvent]:
        """Scan ``chunk``; return the events it made certain."""
        ...

    def close(self) -> list[ScanEvent]:
        """End the stream; return the last events."""
        ...


def tools_by_name(tools: Sequence[Tool] | Mapping[str, Tool] | None) -> Mapping[str, Tool] | None:
    """Index ``tools`` by name (``None`` stays ``None``: nothing to check against)."""
    if tools is None or isinstance(tools, Mapping):
        return tools
    return {tool.name: tool for tool in tools}


class TextReader:
    """Reads calls and responses from text chunk by chunk, in linear time.

    Args:
        tools: The known tools; arguments are checked against their schemas.
        separator: The line between parallel calls.
        ids: Where call ids come from (``call_0``, ``call_1``... by default).
        source: The message the text comes from (its metadata, name and images go to the
            first message built).
        text_format: Read the ``tool_call`` / ``tool_response`` sections of this gent format
            (and, with ``chain``, its action sections and observations) instead of tags.
        chain: The tool chain whose action sections hold calls (needs ``text_format``).
    """

    def __init__(
        self,
        *,
        tools: Sequence[Tool] | Mapping[str, Tool] | None = None,
        separator: str = "---",
        ids: CallIds | None = None,
        source: Message | None = None,
        text_format: TextFormat | None = None,
        chain: ToolChain | None = None,
    ) -> None:
        if chain is not None and text_format is None:
            raise ValueError("reading a tool chain's action sections needs a text format")
        self._scanner: Scanner
        if text_format is None:
            self._scanner = TagScanner()
        else:
            from gent_natural.sections import SectionScanner

            self._scanner = SectionScanner(text_format, chain)
        self._assembler = MessageAssembler(
            ids, tools=tools_by_name(tools), separator=separator, source=source
        )

    @property
    def problems(self) -> list[str]:
        """What could not be used, one line each (also logged as warnings)."""
        return self._assembler.problems

    @property
    def found_calls(self) -> bool:
        """Whether the text held at least one call."""
        return self._assembler.found_elements

    def feed(self, chunk: str) -> list[NaturalEvent]:
        """Read ``chunk``; return the events it made certain."""
        out: list[NaturalEvent] = []
        for event in self._scanner.feed(chunk):
            out += self._assembler.add(event)
        return out

    def close(self) -> list[NaturalEvent]:
        """End the text; return the last events (the last messages among them)."""
        out: list[NaturalEvent] = []
        for event in self._scanner.close():
            out += self._assembler.add(event)
        return out + self._assembler.finish()


def read_text(
    text: str,
    *,
    tools: Sequence[Tool] | Mapping[str, Tool] | None = None,
    separator: str = "---",
    text_format: TextFormat | None = None,
    chain: ToolChain | None = None,
) -> list[Message]:
    """Read the native messages written in ``text`` (empty when it holds no call).

    The arguments are those of :class:`TextReader`.
    """
    reader = TextReader(tools=tools, separator=separator, text_format=text_format, chain=chain)
    events = reader.feed(text) + reader.close()
    return [event.message for event in events if isinstance(event, MessageReady)]
