"""Fuzz target: ``gent convert``'s reader of its input (:func:`gent_natural.cli.read_messages`).

The text is read as a JSON array of OpenAI chat messages, or as JSONL. The reader documents
one error, :class:`gent_natural.cli.InputError` (``gent convert`` prints it and exits 1):
whatever the text, nothing else is raised — no ``RecursionError`` for deep nesting, no
``ValueError`` for an integer of too many digits. The messages read, written back as OpenAI
messages, are strict JSON within gent's bounds; a tool call's arguments either read as a JSON
object within the bounds or raise the ``ValueError`` :meth:`MessageToolCall.parsed_arguments`
documents.
"""

from __future__ import annotations

import json

from gent_natural import messages_to_openai
from gent_natural.cli import InputError, read_messages

from fuzz.targets.contract import check_args, decode, outcome
from gent_core._serialize import check_value, write_json


def test_one_input(data: bytes) -> None:
    """Check the contract on one input."""
    _, text = decode(data)
    messages = outcome(lambda: read_messages(text, "input"), InputError)
    if not isinstance(messages, list):
        return
    written = messages_to_openai(messages)
    check_value(written, name="messages")
    json.loads(write_json(written))  # strict JSON
    for message in messages:
        for call in message.tool_calls:
            arguments = outcome(call.parsed_arguments, ValueError)
            if isinstance(arguments, dict):
                check_args(arguments, f"call {call.id}")
