"""Fuzz target: natural tool use, text -> native (:mod:`gent_natural`'s reader).

The choice byte picks the mode: ``<tool_call>`` tags with the kit's tools known (checked
against their schemas) or unknown, or gent's own xml sections with json calls. The reader
documents no error: whatever the text, reading it never raises. The streaming
:class:`~gent_natural.TextReader`, fed the chunks the choice byte gives, yields the same
messages, calls and prose as reading the text at once; a call read without a problem has
arguments that are one JSON object within gent's bounds.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from gent_json import JSONToolChain
from gent_natural import TextReader
from gent_natural.events import MessageReady, NaturalEvent, ProseDelta, ToolCallRead
from gent_xml import XMLFormat

from fuzz.targets.contract import check_args, chunked, decode
from gent_core.testing import KIT_TOOLS


def reader(choice: int) -> TextReader:
    """A fresh reader in the mode ``choice`` picks."""
    mode = choice % 3
    if mode == 0:
        return TextReader(tools=KIT_TOOLS)
    if mode == 1:
        return TextReader()
    return TextReader(tools=KIT_TOOLS, text_format=XMLFormat(), chain=JSONToolChain(KIT_TOOLS))


def read(choice: int, chunks: Sequence[str]) -> list[NaturalEvent]:
    """Every event of reading ``chunks`` with a fresh reader."""
    text_reader = reader(choice)
    events: list[NaturalEvent] = []
    for chunk in chunks:
        events += text_reader.feed(chunk)
    return events + text_reader.close()


def summary(events: list[NaturalEvent]) -> tuple[object, ...]:
    """What must not depend on the chunking: messages, calls and the prose text."""
    messages = [event.message for event in events if isinstance(event, MessageReady)]
    calls = [(event.call, event.problem) for event in events if isinstance(event, ToolCallRead)]
    prose = "".join(event.text for event in events if isinstance(event, ProseDelta))
    return messages, calls, prose


def test_one_input(data: bytes) -> None:
    """Check the contract on one input."""
    choice, text = decode(data)
    at_once = read(choice, [text])
    for event in at_once:
        if isinstance(event, ToolCallRead) and event.problem is None:
            check_args(json.loads(event.call.arguments), f"call {event.call.id}")
    streamed = read(choice, chunked(text, choice))
    assert summary(streamed) == summary(at_once), "streaming differs from reading at once"
