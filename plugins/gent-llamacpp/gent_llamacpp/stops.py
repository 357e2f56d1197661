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

    def feed(self, text: str) -> str:
        """Add ``text``; return what is now certain to be output (before any stop sequence).

        After a stop sequence matched, :attr:`stopped` is true and further text is ignored.
        """
        if self.stopped:
            return ""
        if not self.stops:
            return text
        buffer = self._held + text
        cut = min((index for stop in self.stops if (index := buffer.find(stop)) >= 0), default=-1)
        if cut >= 0:
            self.stopped = True
            self._held = ""
            return buffer[:cut]
        keep = 0
        for size in range(min(self._longest - 1, len(buffer)), 0, -1):
            tail = buffer[-size:]
            if any(stop.startswith(tail) for stop in self.stops):
                keep = size
                break
        self._held = buffer[len(buffer) - keep :] if keep else ""
        return buffer[: len(buffer) - keep]

    def flush(self) -> str:
        """Return the held-back text at the end of generation (no stop sequence followed)."""
        held, self._held = self._held, ""
        return "" if self.stopped else held
