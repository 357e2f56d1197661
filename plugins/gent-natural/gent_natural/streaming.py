"""Both directions on async streams.

* :func:`stream_text_events` / :func:`stream_text_to_native`: text chunks in (a model's
  output as it streams), events or native messages out, each as soon as it is certain (see
  :class:`~gent_natural.reader.TextReader`: linear work, bounded look-back).
* :func:`stream_native_to_text`: native messages in, messages out. A message that cannot
  belong to a tool turn (user, system) is yielded at once; the messages of a tool turn are
  held until the turn ends (the next user or system message, or the end of the stream),
  since the turn becomes one text message.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterable, AsyncIterator, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from gent_core.messages import Message
from gent_natural.events import MessageReady, NaturalEvent
from gent_natural.grouping import group_messages
from gent_natural.native_to_text import transform_group
from gent_natural.options import NaturalOptions
from gent_natural.reader import TextReader
from gent_natural.writer import writer_for

if TYPE_CHECKING:
    from gent_core.formats import TextFormat
    from gent_core.toolchain import ToolChain
    from gent_core.tools.base import Tool

__all__ = ["stream_native_to_text", "stream_text_events", "stream_text_to_native"]

logger = logging.getLogger("gent_natural")


async def stream_text_events(
    chunks: AsyncIterable[str],
    *,
    tools: Sequence[Tool] | Mapping[str, Tool] | None = None,
    separator: str = "---",
    text_format: TextFormat | None = None,
    chain: ToolChain | None = None,
) -> AsyncIterator[NaturalEvent]:
    """Read text chunks; yield prose, calls, responses and complete messages as they become
    certain. The arguments are those of :class:`~gent_natural.reader.TextReader`.
    """
    reader = TextReader(tools=tools, separator=separator, text_format=text_format, chain=chain)
    async for chunk in chunks:
        for event in reader.feed(chunk):
            yield event
    for event in reader.close():
        yield event


async def stream_text_to_native(
    chunks: AsyncIterable[str],
    *,
    tools: Sequence[Tool] | Mapping[str, Tool] | None = None,
    separator: str = "---",
    text_format: TextFormat | None = None,
    chain: ToolChain | None = None,
) -> AsyncIterator[Message]:
    """Read text chunks; yield each native message as soon as it is complete.

    Text holding no call gives no message (only prose events, see
    :func:`stream_text_events`).
    """
    events = stream_text_events(
        chunks, tools=tools, separator=separator, text_format=text_format, chain=chain
    )
    async for event in events:
        if isinstance(event, MessageReady):
            yield event.message


async def stream_native_to_text(
    messages: AsyncIterable[Message],
    options: NaturalOptions | None = None,
    *,
    text_format: TextFormat | None = None,
) -> AsyncIterator[Message]:
    """Write each tool turn of a message stream as one text message, yielding messages as
    soon as they are certain (the same messages as :func:`~gent_natural.native_to_text.to_text`).
    """
    options = options or NaturalOptions()
    writer = writer_for(text_format)
    turn: list[Message] = []
    turn_start = 0
    counts = {"transformed": 0, "passed": 0}

    def flush() -> list[Message]:
        out: list[Message] = []
        for group in group_messages(turn):
            group = replace(group, start=group.start + turn_start)
            converted, problem = transform_group(group, options, writer)
            done = group.tool_turn and options.enabled and problem is None
            counts["transformed" if done else "passed"] += len(group.messages)
            out += converted
        turn.clear()
        return out

    index = -1
    async for message in messages:
        index += 1
        if message.role in ("assistant", "tool"):
            if not turn:
                turn_start = index
            turn.append(message)
            continue
        for converted in flush():
            yield converted
        counts["passed"] += 1
        yield message
    for converted in flush():
        yield converted
    logger.info(
        "natural: %d messages transformed into text, %d passed through unchanged",
        counts["transformed"],
        counts["passed"],
    )
