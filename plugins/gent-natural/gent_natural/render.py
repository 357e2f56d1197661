"""Write one tool turn as one text message (native -> text).

The message holds, joined by line breaks: each assistant message's text, then its calls,
each followed by its response, the calls separated by a line holding the separator
(``---``). Images in the turn keep their place among the text parts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from gent_core import truncate_output
from gent_core.messages import ContentPart, ImagePart, Message, TextPart
from gent_natural.grouping import CallPair, MessageGroup, TurnStep
from gent_natural.options import NaturalOptions
from gent_natural.tags import MISSING_RESULT
from gent_natural.writer import ElementWriter

__all__ = ["arguments_text", "merge_metadata", "render_turn", "response_text"]


def _pretty(text: str) -> str | None:
    stripped = text.strip()
    if stripped[:1] not in ("{", "[") or stripped[-1:] not in ("}", "]"):
        return None
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError):
        return None
    return json.dumps(value, indent=2, ensure_ascii=False)


def arguments_text(arguments: str, options: NaturalOptions) -> str:
    """The body of a call: the arguments indented by 2 spaces when ``pretty_print_json`` is
    on and they are JSON, else exactly as written.
    """
    if options.pretty_print_json:
        pretty = _pretty(arguments)
        if pretty is not None:
            return pretty
    return arguments


def response_text(result: Message | None, options: NaturalOptions) -> str:
    """The body of a response: the result's text (pretty-printed when it is a JSON object or
    list and ``pretty_print_json`` is on), cut to ``max_response_length``; a note for a call
    without a result.
    """
    if result is None:
        return MISSING_RESULT
    text = result.text
    if options.pretty_print_json:
        text = _pretty(text) or text
    if options.max_response_length is not None:
        text = truncate_output(text, options.max_response_length)
    return text


def _pair_parts(
    pair: CallPair, writer: ElementWriter, options: NaturalOptions
) -> list[ContentPart]:
    call = pair.call
    name = pair.result.name if pair.result is not None and pair.result.name else call.name
    error = pair.result is not None and pair.result.is_error
    text = (
        writer.call(call.name, arguments_text(call.arguments, options))
        + "\n"
        + writer.response(name, response_text(pair.result, options), error=error)
    )
    parts: list[ContentPart] = [TextPart(text)]
    if pair.result is not None:
        parts.extend(pair.result.images)
    return parts


def _block(step: TurnStep, writer: ElementWriter, options: NaturalOptions) -> list[ContentPart]:
    parts: list[ContentPart] = []
    for number, pair in enumerate(step.pairs):
        if number:
            parts.append(TextPart(f"\n{options.separator}\n"))
        parts.extend(_pair_parts(pair, writer, options))
    return parts


def _joined(pieces: Sequence[list[ContentPart]]) -> tuple[ContentPart, ...]:
    parts: list[ContentPart] = []
    for number, piece in enumerate(pieces):
        if number:
            parts.append(TextPart("\n"))
        parts.extend(piece)
    merged: list[ContentPart] = []
    for part in parts:
        if isinstance(part, TextPart) and merged and isinstance(merged[-1], TextPart):
            merged[-1] = TextPart(merged[-1].text + part.text)
        else:
            merged.append(part)
    return tuple(merged)


def merge_metadata(messages: Sequence[Message], strategy: str) -> dict[str, Any]:
    """Merge the metadata of ``messages`` (see :data:`~gent_natural.options.MetadataStrategy`)."""
    if strategy == "combine":
        values: dict[str, list[Any]] = {}
        for message in messages:
            for key, value in message.metadata.items():
                seen = values.setdefault(key, [])
                if value not in seen:
                    seen.append(value)
        return {key: seen[0] if len(seen) == 1 else seen for key, seen in values.items()}
    merged: dict[str, Any] = {}
    for message in messages:
        if strategy == "first_wins":
            for key, value in message.metadata.items():
                merged.setdefault(key, value)
        else:
            merged.update(message.metadata)
    return merged


def _role(group: MessageGroup, ends_with_response: bool, options: NaturalOptions) -> Any:
    strategy = options.role_strategy
    if strategy == "always_user":
        return "user"
    if strategy == "always_assistant":
        return "assistant"
    if strategy == "by_content":
        return "user" if ends_with_response else "assistant"
    return group.messages[0].role


def render_turn(
    group: MessageGroup,
    steps: Sequence[TurnStep],
    writer: ElementWriter,
    options: NaturalOptions,
) -> Message:
    """Write the paired ``steps`` of tool turn ``group`` as one message.

    Raises:
        Exception: Whatever ``writer`` raises for a call it cannot write (a format's limits).
    """
    pieces: list[list[ContentPart]] = []
    ends_with_response = False
    for step in steps:
        content = step.message.parts
        if any(isinstance(part, ImagePart) or part.text for part in content):
            pieces.append(list(content))
            ends_with_response = False
        if step.pairs:
            pieces.append(_block(step, writer, options))
            ends_with_response = True
    metadata: Mapping[str, Any] = merge_metadata(group.messages, options.metadata_strategy)
    name = next((m.name for m in group.messages if m.role != "tool" and m.name), None)
    return Message(
        _role(group, ends_with_response, options),
        _joined(pieces),
        name=name,
        metadata=metadata,
    )
