"""Fuzz target: the ``xml`` format's one-shot ``parse`` (lenient, and strict when the choice
byte is odd).
"""

from __future__ import annotations

from gent_xml import XMLFormat

from fuzz.targets.contract import decode
from fuzz.targets.formats import check_one_shot

LENIENT, STRICT = XMLFormat(), XMLFormat(strict=True)


def test_one_input(data: bytes) -> None:
    """Check the contract on one input (see :mod:`fuzz.targets.formats`)."""
    choice, text = decode(data)
    check_one_shot(STRICT if choice & 1 else LENIENT, text)
