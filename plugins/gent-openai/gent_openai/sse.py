"""Server-sent events: reading ``data:`` payloads from a stream of lines."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator

__all__ = ["DONE", "sse_data"]

DONE = "[DONE]"
"""The payload OpenAI-compatible servers send last."""


async def sse_data(lines: AsyncIterable[str]) -> AsyncIterator[str]:
    """Yield the data of each event in ``lines`` (as read, one at a time).

    Multi-line data (several ``data:`` lines in one event) is joined with newlines; comments
    (``:``), ``event:``, ``id:`` and ``retry:`` fields are skipped. The stream ends after the
    :data:`DONE` payload (which is yielded, so the caller knows the stream was complete) or at
    the end of the lines.
    """
    pending: list[str] = []
    async for raw in lines:
        line = raw.rstrip("\r\n")
        if not line:
            if pending:
                data = "\n".join(pending)
                pending = []
                yield data
                if data == DONE:
                    return
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        if field != "data":
            continue
        pending.append(value[1:] if value.startswith(" ") else value)
    if pending:
        yield "\n".join(pending)
