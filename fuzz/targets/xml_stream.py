"""Fuzz target: the ``xml`` format's incremental parser against its one-shot parse, in the
chunks the choice byte gives (strict when it is odd).
"""

from __future__ import annotations

from gent_xml import XMLFormat

from fuzz.targets.contract import decode
from fuzz.targets.formats import check_streaming

LENIENT, STRICT = XMLFormat(), XMLFormat(strict=True)


def test_one_input(data: bytes) -> None:
    """Check the contract on one input (see :mod:`fuzz.targets.formats`)."""
    choice, text = decode(data)
    check_streaming(STRICT if choice & 1 else LENIENT, text, choice)
