"""Text -> native: read the tool calls written in a conversation's text messages.

Each message of the chosen roles (assistant by default) whose text holds calls is replaced by
native messages: assistant messages with ``tool_calls`` (ids ``call_0``, ``call_1``...,
skipping ids the conversation already uses) and ``role: tool`` messages for the responses.
Messages holding no call pass through unchanged; so does a message whose reading fails, with
a warning logged. Counts are logged at INFO on the ``gent_natural`` logger.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gent_core.errors import describe_error
from gent_core.messages import Message
from gent_natural.events import MessageReady
from gent_natural.ids import CallIds
from gent_natural.reader import TextReader, tools_by_name

if TYPE_CHECKING:
    from gent_core.formats import TextFormat
    from gent_core.toolchain import ToolChain
    from gent_core.tools.base import Tool

__all__ = ["NativeConversion", "convert_to_native", "to_native"]

logger = logging.getLogger("gent_natural")


@dataclass
class NativeConversion:
    """The outcome of :func:`convert_to_native`.

    Attributes:
        messages: The converted conversation.
        transformed: How many text messages were read into native messages.
        passed_through: How many messages passed through unchanged.
        problems: What could not be used (calls with bad arguments, text kept as it was),
            one line each.
    """

    messages: list[Message] = field(default_factory=list)
    transformed: int = 0
    passed_through: int = 0
    problems: list[str] = field(default_factory=list)


def convert_to_native(
    messages: Sequence[Message],
    *,
    tools: Sequence[Tool] | Mapping[str, Tool] | None = None,
    separator: str = "---",
    roles: Collection[str] = ("assistant",),
    text_format: TextFormat | None = None,
    chain: ToolChain | None = None,
) -> NativeConversion:
    """Read the calls written in the text of ``messages`` into native messages.

    Args:
        messages: The conversation.
        tools: The known tools: arguments are checked against their schemas, and a call to
            another tool is reported. ``None`` checks nothing.
        separator: The line written between parallel calls.
        roles: The roles whose messages are read (``("assistant", "user")`` also reads text
            written with the ``always_user`` or ``by_content`` role strategies).
        text_format: Read this gent format's sections instead of tags.
        chain: Also read this tool chain's action sections and their observations (needs
            ``text_format``).
    """
    known = tools_by_name(tools)
    taken = {call.id for message in messages for call in message.tool_calls}
    ids = CallIds(taken=taken)
    conversion = NativeConversion()
    for index, message in enumerate(messages):
        events: list[object] = []
        if message.role in roles and message.role != "tool" and not message.tool_calls:
            reader = TextReader(
                tools=known,
                separator=separator,
                ids=ids,
                source=message,
                text_format=text_format,
                chain=chain,
            )
            events = _read_message(reader, message, index, conversion)
        ready = [event.message for event in events if isinstance(event, MessageReady)]
        if not ready:
            conversion.messages.append(message)
            conversion.passed_through += 1
            continue
        conversion.messages += ready
        conversion.transformed += 1
    logger.info(
        "natural: %d messages read into native messages, %d passed through unchanged",
        conversion.transformed,
        conversion.passed_through,
    )
    return conversion


def _read_message(
    reader: TextReader, message: Message, index: int, conversion: NativeConversion
) -> list[object]:
    """The events of reading message ``index`` with ``reader`` (none when it holds no call or
    cannot be read: it then passes through); its problems join ``conversion``'s.
    """
    try:
        events: list[object] = [*reader.feed(message.text), *reader.close()]
    except Exception as error:  # noqa: BLE001 - a message that cannot be read passes through
        problem = f"message {index} passed through unchanged: {describe_error(error)}"
        logger.warning("natural: %s", problem)
        conversion.problems.append(problem)
        events = []
    conversion.problems += [f"message {index}: {problem}" for problem in reader.problems]
    return events if reader.found_calls else []


def to_native(
    messages: Sequence[Message],
    *,
    tools: Sequence[Tool] | Mapping[str, Tool] | None = None,
    separator: str = "---",
    roles: Collection[str] = ("assistant",),
    text_format: TextFormat | None = None,
    chain: ToolChain | None = None,
) -> list[Message]:
    """Return ``messages`` with the calls written in their text read into native messages
    (see :func:`convert_to_native`).
    """
    return convert_to_native(
        messages,
        tools=tools,
        separator=separator,
        roles=roles,
        text_format=text_format,
        chain=chain,
    ).messages
