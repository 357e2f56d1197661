"""The pythonic tool chain against the ToolChain contract (gent's conformance kit)."""

from __future__ import annotations

from collections.abc import Sequence

from gent_pythonic import PythonicToolChain

from gent_core.testing import ChainConformance
from gent_core.tools.base import Tool


class TestPythonicToolChain(ChainConformance):
    """Round trip, truncation, documented errors, examples, guidance and grammar."""

    def make_chain(self, tools: Sequence[Tool]) -> PythonicToolChain:
        return PythonicToolChain(tools)


class TestPythonicToolChainKeywordsOnly(ChainConformance):
    """The same with positional arguments refused."""

    def make_chain(self, tools: Sequence[Tool]) -> PythonicToolChain:
        return PythonicToolChain(tools, positional=False)
