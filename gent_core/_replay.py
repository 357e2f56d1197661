"""The messages a logged run stands for: rebuilding a conversation from step records.

A step's record holds everything the conversation gained in that step: what the model wrote,
each repair asked for and written, and the observation or feedback sent back (text and
media). :func:`step_messages` turns one record back into those messages; a resumed run
(:meth:`Agent.resume <gent_core.Agent.resume>`) replays its steps with it, and
:func:`conversation_messages` turns whole earlier runs into the history a new run continues
(``gent run --continue``, the turns of ``gent chat``).
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Sequence

from gent_core.messages import ContentPart, ImagePart, Message, TextPart
from gent_core.records import RunResult, StepRecord

__all__ = ["conversation_messages", "step_messages", "turn_messages"]


def step_messages(step: StepRecord) -> list[Message]:
    """The messages one completed step added to its run's conversation, in order: the
    model's output, each repair (request and output), then the followup (observation or
    feedback, with its media) when there was one.
    """
    messages = [Message.assistant(step.output)]
    for repair in step.repairs:
        messages.append(Message.user(repair.request))
        messages.append(Message.assistant(repair.output))
    if step.followup or step.followup_media:
        parts: list[ContentPart] = [TextPart(step.followup)] if step.followup else []
        parts.extend(
            ImagePart(base64.b64decode(media["data"]), media["media_type"])
            for media in step.followup_media
        )
        messages.append(Message.user(parts))
    return messages


def conversation_messages(runs: Iterable[tuple[str, Sequence[StepRecord]]]) -> list[Message]:
    """The history that earlier runs of a conversation leave for the next one (no system
    message): for each run, oldest first, its task as a user message and then its steps'
    messages (:func:`step_messages`).

    Args:
        runs: ``(task, steps)`` of each earlier run, oldest first.
    """
    messages: list[Message] = []
    for task, steps in runs:
        messages.append(Message.user(task))
        for step in steps:
            messages.extend(step_messages(step))
    return messages


def turn_messages(result: RunResult) -> list[Message]:
    """The messages of a finished run, as the history of the next turn of a conversation
    (``gent chat``): its task, then its steps' messages; no system message (each run sends
    its own).
    """
    return conversation_messages([(result.task, result.steps)])
