"""The agent's grammar as a back end sends it (:func:`checked_agent_grammar`): checked, or
dropped with a warning when it cannot be built or fails the check."""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import pytest
from gent_json import JSONToolChain
from gent_prompt import checked_agent_grammar
from gent_xml import XMLFormat

from gent_core import TextTermination
from gent_core.grammar import check_gbnf
from gent_core.model import OutputStructure
from gent_core.sections import TextSection
from gent_core.tools import tool


@tool
def double(n: int) -> int:
    """Double a number."""
    return 2 * n


def structure() -> OutputStructure:
    chain = JSONToolChain()
    chain.add_tool(double)
    answer = TextTermination()
    return OutputStructure(XMLFormat(), [TextSection("thinking"), chain, answer], chain, answer)


def test_checked_agent_grammar_returns_a_checked_grammar_or_warns(
    caplog: pytest.LogCaptureFixture,
) -> None:
    logger = logging.getLogger("gent.test")
    good = checked_agent_grammar(structure(), logger)
    assert good is not None
    check_gbnf(good)

    class BrokenText(XMLFormat):
        def grammar_text(self, builder: Any) -> str:
            return '"unterminated'

    class Buggy(XMLFormat):
        def grammar_text(self, builder: Any) -> str:
            raise KeyError("oops")

    broken = dataclasses.replace(structure(), format=BrokenText())
    buggy = dataclasses.replace(structure(), format=Buggy())
    with caplog.at_level(logging.WARNING, logger="gent.test"):
        assert checked_agent_grammar(broken, logger) is None
        assert checked_agent_grammar(buggy, logger) is None
    assert "no grammar for this agent, generating unconstrained" in caplog.text
    assert "raised KeyError" in caplog.text
