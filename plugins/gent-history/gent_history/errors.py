"""The errors of the run history: :class:`HistoryError`, and :class:`DamagedRow` for a row
that gent did not write that way.
"""

from __future__ import annotations

from gent_core.errors import GentError

__all__ = ["DamagedRow", "HistoryError"]


class HistoryError(GentError):
    """The history database cannot be opened, read or written; the message says why and
    what to do.
    """


class DamagedRow(HistoryError):
    """A row of the history database that gent did not write that way (edited by hand, or
    damaged); the message names the run and what is wrong.
    """
