"""Server-sent events: reading ``data:`` payloads from a stream of text, within bounds."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator

from gent_core.bounds import LineTooLongError, bounded_lines
from gent_core.errors import Location, ModelError

__all__ = ["DONE", "sse_data"]

DONE = "[DONE]"
"""The payload OpenAI-compatible servers send last."""

_LOCATION = Location(plugin="openai")
_HINT = (
    "A server that sends a whole long answer as one event needs a higher max_line_chars "
    "(an option of the openai model); any other server is misbehaving."
)


def _too_long(what: str, limit: int) -> ModelError:
    return ModelError(
        f"the server sent {what} of more than {limit:,} characters in its event stream (the "
        "max_line_chars option); the response was dropped",
        location=_LOCATION,
        hint=_HINT,
    )


async def sse_data(chunks: AsyncIterable[str], max_chars: int) -> AsyncIterator[str]:
    """Yield the data of each event in the text ``chunks`` (as they arrive, one at a time).

    Multi-line data (several ``data:`` lines in one event) is joined with newlines; comments
    (``:``), ``event:``, ``id:`` and ``retry:`` fields are skipped. The stream ends after the
    :data:`DONE` payload (which is yielded, so the caller knows the stream was complete) or at
    the end of the text.

    Args:
        chunks: The response body as text, in pieces of any size.
        max_chars: The most characters of one line, and of one event's data.

    Raises:
        ModelError: A line or an event longer than ``max_chars`` (read no further).
    """
    pending: list[str] = []
    size = 0
    try:
        async for line in bounded_lines(chunks, max_chars):
            if not line:
                if pending:
                    data = "\n".join(pending)
                    pending, size = [], 0
                    yield data
                    if data == DONE:
                        return
                continue
            if line.startswith(":"):
                continue
            field, _, value = line.partition(":")
            if field != "data":
                continue
            value = value[1:] if value.startswith(" ") else value
            size += len(value) + (1 if pending else 0)
            if size > max_chars:
                raise _too_long("an event", max_chars)
            pending.append(value)
    except LineTooLongError:
        raise _too_long("a line", max_chars) from None
    if pending:
        yield "\n".join(pending)
