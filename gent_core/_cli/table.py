"""Aligned plain-text tables, as ``gent plugins`` and ``gent tools`` print them."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["aligned_table"]


def aligned_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Render ``rows`` under ``header``, columns separated by two spaces.

    Every column but the last is padded to its widest cell; the last one (usually a
    description) runs free, and trailing spaces are removed.
    """
    table = [list(header), *(list(row) for row in rows)]
    widths = [max(len(row[i]) for row in table) for i in range(len(header) - 1)]
    lines = []
    for row in table:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        lines.append("  ".join([*cells, row[-1]]).rstrip())
    return "\n".join(lines)
