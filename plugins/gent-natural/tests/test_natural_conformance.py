"""The ``natural`` tool chain against the ToolChain contract (gent's conformance kit)."""

from __future__ import annotations

from collections.abc import Sequence

from gent_natural.chain import NaturalToolChain

from gent_core.testing import ChainConformance
from gent_core.tools.base import Tool


class TestNaturalToolChain(ChainConformance):
    """Round trip, truncation, documented errors, examples, guidance and grammar."""

    def make_chain(self, tools: Sequence[Tool]) -> NaturalToolChain:
        return NaturalToolChain(tools)


class TestNaturalToolChainOneLine(ChainConformance):
    """The same with the arguments written on one line."""

    def make_chain(self, tools: Sequence[Tool]) -> NaturalToolChain:
        return NaturalToolChain(tools, indent=None)
