"""Fuzz target: the ``markdown`` format's one-shot ``parse``."""

from __future__ import annotations

from gent_markdown import MarkdownFormat

from fuzz.targets.contract import decode
from fuzz.targets.formats import check_one_shot

FORMAT = MarkdownFormat()


def test_one_input(data: bytes) -> None:
    """Check the contract on one input (see :mod:`fuzz.targets.formats`)."""
    _, text = decode(data)
    check_one_shot(FORMAT, text)
