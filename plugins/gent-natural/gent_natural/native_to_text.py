"""Native -> text: write every tool turn of a conversation as one text message.

Messages without tool calls pass through unchanged (the same objects). A turn that cannot be
written (a result answering no call, a call the configured format cannot write) passes
through unchanged too, with a warning logged; nothing is ever dropped. The counts of
transformed and passed-through messages are logged at INFO on the ``gent_natural`` logger.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gent_core.errors import describe_error
from gent_core.messages import Message
from gent_natural.grouping import MessageGroup, TurnError, group_messages, pair_turn
from gent_natural.options import NaturalOptions
from gent_natural.render import render_turn
from gent_natural.writer import ElementWriter, writer_for

if TYPE_CHECKING:
    from gent_core.formats import TextFormat

__all__ = ["TextConversion", "convert_to_text", "to_text", "transform_group"]

logger = logging.getLogger("gent_natural")


@dataclass
class TextConversion:
    """The outcome of :func:`convert_to_text`.

    Attributes:
        messages: The converted conversation.
        transformed: How many native messages were written into text messages.
        passed_through: How many messages passed through unchanged.
        problems: One line per turn that passed through because it could not be written.
    """

    messages: list[Message] = field(default_factory=list)
    transformed: int = 0
    passed_through: int = 0
    problems: list[str] = field(default_factory=list)


def transform_group(
    group: MessageGroup, options: NaturalOptions, writer: ElementWriter
) -> tuple[list[Message], str | None]:
    """Convert one group: ``([text message], None)``, or ``(its messages, problem)`` when it
    passes through.
    """
    if not group.tool_turn or not options.enabled:
        return list(group.messages), None
    try:
        return [render_turn(group, pair_turn(group), writer, options)], None
    except TurnError as error:
        problem = str(error)
    except Exception as error:  # noqa: BLE001 - a turn that cannot be written passes through
        problem = describe_error(error)
    end = group.start + len(group.messages) - 1
    where = f"message {end}" if end == group.start else f"messages {group.start}-{end}"
    problem = f"{where} passed through unchanged: {problem}"
    logger.warning("natural: %s", problem)
    return list(group.messages), problem


def convert_to_text(
    messages: Sequence[Message],
    options: NaturalOptions | None = None,
    *,
    text_format: TextFormat | None = None,
) -> TextConversion:
    """Write every tool turn of ``messages`` as one text message.

    Args:
        messages: The conversation (native tool calls and results).
        options: How turns are written; the defaults of :class:`NaturalOptions` otherwise.
        text_format: Write calls and results as this format's ``tool_call`` and
            ``tool_response`` sections instead of natural tags.
    """
    options = options or NaturalOptions()
    writer = writer_for(text_format)
    conversion = TextConversion()
    for group in group_messages(messages):
        converted, problem = transform_group(group, options, writer)
        conversion.messages.extend(converted)
        if group.tool_turn and options.enabled and problem is None:
            conversion.transformed += len(group.messages)
        else:
            conversion.passed_through += len(group.messages)
        if problem is not None:
            conversion.problems.append(problem)
    logger.info(
        "natural: %d messages transformed into text, %d passed through unchanged",
        conversion.transformed,
        conversion.passed_through,
    )
    return conversion


def to_text(
    messages: Sequence[Message],
    options: NaturalOptions | None = None,
    *,
    text_format: TextFormat | None = None,
) -> list[Message]:
    """Return ``messages`` with every tool turn written as one text message (see
    :func:`convert_to_text`).
    """
    return convert_to_text(messages, options, text_format=text_format).messages
