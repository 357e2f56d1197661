"""Stop sequences over streamed text: :class:`StopMatcher`."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["StopMatcher"]


class StopMatcher:
    """Cuts streamed text at the first stop sequence, which is dropped.

    Text that could be the start of a stop sequence is held back until the next piece shows
    whether it is one. Work per piece is linear in the piece plus the longest stop sequence.

    Args:
        stops: The stop sequences (empty strings are ignored).
    """

    def __init__(self, stops: Iterable[str]) -> None:
        self.stops = [stop for stop in stops if stop]
        self._longest = max((len(stop) for stop in self.stops), default=0)
        self._held = ""
        self.stopped = False

    def _first_match(self, buffer: str) -> int:
        """Offset of the earliest complete stop sequence in ``buffer``, or -1."""
        return min((index for stop in self.stops if (index := buffer.find(stop)) >= 0), default=-1)

    def _first_pending(self, buffer: str) -> int:
        """Offset of the earliest place where a stop sequence may still begin (the rest of
        ``buffer`` is a proper prefix of one), or -1.
        """
        for start in range(max(0, len(buffer) - self._longest + 1), len(buffer)):
            tail = buffer[start:]
            if any(len(stop) > len(tail) and stop.startswith(tail) for stop in self.stops):
                return start
        return -1

    def feed(self, text: str) -> str:
        """Add ``text``; return what is now certain to be output (before any stop sequence).

        A complete match is only acted on when no other stop sequence could still match
        earlier (``"</<"`` beginning before a matched ``"/"``). After a stop sequence matched,
        :attr:`stopped` is true and further text is ignored.
        """
        if self.stopped:
            return ""
        if not self.stops:
            return text
        buffer = self._held + text
        cut = self._first_match(buffer)
        pending = self._first_pending(buffer)
        if cut >= 0 and (pending < 0 or cut <= pending):
            self.stopped = True
            self._held = ""
            return buffer[:cut]
        if pending >= 0:
            self._held = buffer[pending:]
            return buffer[:pending]
        self._held = ""
        return buffer

    def flush(self) -> str:
        """Return the held-back text at the end of generation (cut at a stop it contains)."""
        held, self._held = self._held, ""
        if self.stopped:
            return ""
        cut = self._first_match(held)
        if cut >= 0:
            self.stopped = True
            return held[:cut]
        return held
