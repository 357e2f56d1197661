r"""Reading a peer's text line by line with a bound on each line: the one place for it.

A server's event stream (``text/event-stream``) or a subprocess's output is read as lines; a
peer that never ends its line would otherwise make the reader hold the whole stream in
memory. :func:`bounded_lines` splits text chunks into lines and raises
:class:`LineTooLongError` as soon as the line being read passes its bound, holding at most
the bound plus one chunk.

Lines end at ``\r\n``, ``\n`` or a lone ``\r`` (what server-sent events allow, and what
``httpx``'s ``aiter_lines`` splits on); the ends are not part of the lines. Nothing else (no
``\u2028``, no form feed) ends a line, unlike :meth:`str.splitlines`.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterable, AsyncIterator

__all__ = ["LineTooLongError", "bounded_lines"]

_LINE_END = re.compile(r"\r\n|\r|\n")


class LineTooLongError(ValueError):
    """A line passed its bound; the reader stopped there.

    Attributes:
        limit: The bound, in characters.
        line: The number of the line (1-based).
    """

    def __init__(self, limit: int, line: int) -> None:
        super().__init__(f"line {line} is longer than {limit:,} characters")
        self.limit = limit
        self.line = line


async def bounded_lines(chunks: AsyncIterable[str], max_chars: int) -> AsyncIterator[str]:
    """Yield the lines of the text arriving in ``chunks``, each at most ``max_chars`` long.

    A last line without a line end is yielded too.

    Args:
        chunks: Text as it arrives, in pieces of any size.
        max_chars: The most characters a line may have (its end not counted).

    Raises:
        LineTooLongError: As soon as the line being read has more than ``max_chars``
            characters; nothing of it is yielded.
    """
    pieces: list[str] = []  # the current line so far
    size = 0
    number = 1
    after_cr = False  # the last chunk ended with "\r": a "\n" starting the next one goes with it
    async for chunk in chunks:
        if after_cr and chunk.startswith("\n"):
            chunk = chunk[1:]
        after_cr = False
        start = 0
        for end in _LINE_END.finditer(chunk):
            piece = chunk[start : end.start()]
            if size + len(piece) > max_chars:
                raise LineTooLongError(max_chars, number)
            pieces.append(piece)
            yield "".join(pieces)
            pieces.clear()
            size = 0
            number += 1
            start = end.end()
            after_cr = end.group() == "\r" and start == len(chunk)
        rest = chunk[start:]
        size += len(rest)
        if size > max_chars:
            raise LineTooLongError(max_chars, number)
        if rest:
            pieces.append(rest)
    if pieces:
        yield "".join(pieces)
