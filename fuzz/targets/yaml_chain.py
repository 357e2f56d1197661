"""Fuzz target: the ``yaml`` tool chain's ``parse`` and its ``format_calls`` round trip
(the chain knows the conformance kit's tools).
"""

from __future__ import annotations

from gent_yaml import YAMLToolChain

from fuzz.targets.chains import check_chain
from fuzz.targets.contract import decode
from gent_core.testing import KIT_TOOLS

CHAIN = YAMLToolChain(KIT_TOOLS)


def test_one_input(data: bytes) -> None:
    """Check the contract on one input (see :mod:`fuzz.targets.chains`)."""
    _, text = decode(data)
    check_chain(CHAIN, text)
