"""Fuzz target: the ``markdown`` format's incremental parser against its one-shot parse, in
the chunks the choice byte gives.
"""

from __future__ import annotations

from gent_markdown import MarkdownFormat

from fuzz.targets.contract import decode
from fuzz.targets.formats import check_streaming

FORMAT = MarkdownFormat()


def test_one_input(data: bytes) -> None:
    """Check the contract on one input (see :mod:`fuzz.targets.formats`)."""
    choice, text = decode(data)
    check_streaming(FORMAT, text, choice)
