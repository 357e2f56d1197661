"""gent-natural: natural tool use, between native function calling and text, both ways.

* :func:`to_text` writes the tool turns of a native conversation (assistant ``tool_calls``
  and ``role: tool`` results) as ``<tool_call name="X">`` / ``<tool_response name="X">`` text;
* :func:`to_native` reads the calls written in text (tags, the Hermes/Qwen form, or gent's
  own action sections) back into native messages;
* :func:`stream_text_to_native`, :func:`stream_text_events`,
  :func:`stream_native_to_text` and :func:`stream_deltas_to_text` (a natively streamed reply's
  OpenAI deltas) do the same on async streams;
* :func:`messages_from_openai` reads a conversation of OpenAI chat messages, exactly, and
  :func:`messages_to_openai` (:func:`message_to_openai` for one message) writes it back, in
  that exact form or in the form a chat-completions server takes (``request=True``); how a
  source spelled things is kept under :data:`OPENAI_FORM_KEY`. Model back ends that talk to
  such servers depend on gent-natural for this writer;
* :class:`NaturalToolChain` (the ``natural`` tool chain) lets gent's own loop run models
  that write ``<tool_call>`` tags; :class:`NaturalMiddleware` (``natural: true`` in an agent
  config) turns a native history into text before the model sees it.

Everything is imported on first use (PEP 562), so loading the plugin stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core import load_export

_EXPORTS = {
    "NaturalOptions": "gent_natural.options",
    "OpenAIMessageError": "gent_natural.openai_messages",
    "messages_from_openai": "gent_natural.openai_messages",
    "OPENAI_FORM_KEY": "gent_natural.openai_writer",
    "message_to_openai": "gent_natural.openai_writer",
    "messages_to_openai": "gent_natural.openai_writer",
    "to_text": "gent_natural.native_to_text",
    "convert_to_text": "gent_natural.native_to_text",
    "TextConversion": "gent_natural.native_to_text",
    "to_native": "gent_natural.text_to_native",
    "convert_to_native": "gent_natural.text_to_native",
    "NativeConversion": "gent_natural.text_to_native",
    "TextReader": "gent_natural.reader",
    "read_text": "gent_natural.reader",
    "stream_text_events": "gent_natural.streaming",
    "stream_text_to_native": "gent_natural.streaming",
    "stream_native_to_text": "gent_natural.streaming",
    "stream_deltas_to_text": "gent_natural.deltas",
    "MessageReady": "gent_natural.events",
    "ProseDelta": "gent_natural.events",
    "ToolCallRead": "gent_natural.events",
    "ToolResponseRead": "gent_natural.events",
}

if TYPE_CHECKING:
    from gent_natural.deltas import stream_deltas_to_text
    from gent_natural.events import MessageReady, ProseDelta, ToolCallRead, ToolResponseRead
    from gent_natural.native_to_text import TextConversion, convert_to_text, to_text
    from gent_natural.openai_messages import OpenAIMessageError, messages_from_openai
    from gent_natural.openai_writer import OPENAI_FORM_KEY, message_to_openai, messages_to_openai
    from gent_natural.options import NaturalOptions
    from gent_natural.reader import TextReader, read_text
    from gent_natural.streaming import (
        stream_native_to_text,
        stream_text_events,
        stream_text_to_native,
    )
    from gent_natural.text_to_native import NativeConversion, convert_to_native, to_native

__all__ = [
    "MessageReady",
    "NativeConversion",
    "NaturalOptions",
    "OPENAI_FORM_KEY",
    "OpenAIMessageError",
    "ProseDelta",
    "TextConversion",
    "TextReader",
    "ToolCallRead",
    "ToolResponseRead",
    "convert_to_native",
    "convert_to_text",
    "message_to_openai",
    "messages_from_openai",
    "messages_to_openai",
    "read_text",
    "stream_deltas_to_text",
    "stream_native_to_text",
    "stream_text_events",
    "stream_text_to_native",
    "to_native",
    "to_text",
]


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)
