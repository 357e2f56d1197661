"""Native -> text on a model's streamed output: OpenAI chat-completion deltas in, text out.

A model with native function calling streams its reply as deltas: ``content`` fragments, and
``tool_calls`` fragments (``index``, then ``id`` and ``function.name`` once, then pieces of
``function.arguments``). :func:`stream_deltas_to_text` turns them into the text a text-based
reader expects, as the chunks arrive:

* content is yielded at once;
* each call is written as a ``<tool_call name="X">`` element (see
  :func:`~gent_natural.tags.write_element`) as soon as it is complete: when the next call
  starts, when content follows it, or at the end of the stream. Its arguments are held until
  then, since only the complete arguments can be pretty-printed (and wrapped in CDATA when
  they hold ``</tool_call>``);
* calls are separated from each other and from the text around them by a line break, as
  :meth:`NaturalToolChain.format_calls <gent_natural.chain.NaturalToolChain.format_calls>`
  writes them, so the text reads back into the same calls with
  :func:`~gent_natural.streaming.stream_text_to_native`.

Each item of the stream may be a whole chunk (``{"choices": [{"delta": {...}}]}``, the first
choice is read) or a bare delta (``{"content": ..., "tool_calls": [...]}``); with the
``openai`` SDK, pass ``chunk.model_dump()``.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from gent_natural.options import NaturalOptions
from gent_natural.render import arguments_text
from gent_natural.tags import CALL_TAG, write_element

__all__ = ["DeltaError", "DeltaWriter", "stream_deltas_to_text"]


class DeltaError(ValueError):
    """A stream item that is not a chat-completion delta, saying what is accepted."""


@dataclass
class _Call:
    name: str = ""
    arguments: list[str] = field(default_factory=list)


def _delta(item: Any, number: int) -> Mapping[str, Any]:
    if not isinstance(item, Mapping):
        raise DeltaError(
            f"stream item {number}: expected a delta object, got {type(item).__name__}"
        )
    choices = item.get("choices")
    if choices is None:
        return item
    if not isinstance(choices, list):
        raise DeltaError(f"stream item {number}: 'choices' must be a list")
    if not choices:
        return {}  # usage-only chunks carry no choice
    first = choices[0]
    delta = first.get("delta") if isinstance(first, Mapping) else None
    if not isinstance(delta, Mapping):
        raise DeltaError(f"stream item {number}: 'choices[0].delta' must be an object")
    return delta


class DeltaWriter:
    """Turns deltas into text, one delta at a time (see the module docstring).

    Args:
        options: ``pretty_print_json`` is honoured for the arguments.
    """

    def __init__(self, options: NaturalOptions | None = None) -> None:
        self.options = options or NaturalOptions()
        self._calls: dict[int, _Call] = {}
        self._order: list[int] = []
        self._last = ""  # what was written last: "content", "calls" or nothing

    def feed(self, item: Any, number: int = 0) -> str:
        """Take one stream item; return the text it made certain (possibly empty).

        Raises:
            DeltaError: The item is not a delta or chunk, or a tool call fragment is malformed.
        """
        delta = _delta(item, number)
        out: list[str] = []
        fragments = delta.get("tool_calls") or []
        if not isinstance(fragments, list):
            raise DeltaError(f"stream item {number}: 'tool_calls' must be a list")
        for fragment in fragments:
            self._fragment(fragment, number, out)
        content = delta.get("content")
        if isinstance(content, str) and content:
            out.append(self._flush())
            out.append(f"\n{content}" if self._last == "calls" else content)
            self._last = "content"
        return "".join(out)

    def close(self) -> str:
        """End of the stream: the calls still held."""
        return self._flush()

    def _fragment(self, fragment: Any, number: int, out: list[str]) -> None:
        if not isinstance(fragment, Mapping) or not isinstance(fragment.get("index", 0), int):
            raise DeltaError(
                f"stream item {number}: a tool_calls entry must be an object with an integer "
                '"index" and a "function" with "name" and "arguments" pieces'
            )
        index = fragment.get("index", 0)
        if index not in self._calls:
            if self._order:  # a new call: the ones before it are complete
                out.append(self._flush())
            self._calls[index] = _Call()
            self._order.append(index)
        call = self._calls[index]
        function = fragment.get("function") or {}
        if not isinstance(function, Mapping):
            raise DeltaError(f"stream item {number}: 'function' must be an object")
        name = function.get("name")
        if isinstance(name, str):
            call.name += name
        arguments = function.get("arguments")
        if isinstance(arguments, str):
            call.arguments.append(arguments)

    def _flush(self) -> str:
        if not self._order:
            return ""
        pieces = []
        for index in self._order:
            call = self._calls.pop(index)
            body = arguments_text("".join(call.arguments) or "{}", self.options)
            pieces.append(write_element(CALL_TAG, body, {"name": call.name}))
        self._order = []
        prefix = "\n" if self._last else ""
        self._last = "calls"
        return prefix + "\n".join(pieces)


async def stream_deltas_to_text(
    deltas: AsyncIterable[Any], options: NaturalOptions | None = None
) -> AsyncIterator[str]:
    """Yield the text of a natively streamed reply as its deltas arrive (see the module
    docstring).

    Raises:
        DeltaError: An item that is not a chat-completion chunk or delta.
    """
    writer = DeltaWriter(options)
    number = 0
    async for item in deltas:
        text = writer.feed(item, number)
        number += 1
        if text:
            yield text
    tail = writer.close()
    if tail:
        yield tail
