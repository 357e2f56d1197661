"""Tests of the template tool chain: gent's conformance kit, then its own rules.

The kit checks round trips, cut calls, examples, the guidance, the grammar...
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from gent_core.errors import ParseError
from gent_core.testing import ChainConformance, PluginSandbox
from gent_core.tools.base import Tool

from gent_template import plugin
from gent_template.plugin import TemplateChain


class TestTemplateChain(ChainConformance):
    """Every check of the kit, on this chain."""

    def make_chain(self, tools: Sequence[Tool]) -> TemplateChain:
        return TemplateChain(tools)


def test_the_plugin_supplies_the_chain(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(plugin, "template")
    chain = gent_plugins.registry().create("toolchain", "template", tools=[])
    assert isinstance(chain, TemplateChain)


def test_one_call_per_line() -> None:
    calls = TemplateChain().parse('\ncalculator {"expression": "6 * 7"}\n\nclock {}\n')
    assert [(call.tool, call.args) for call in calls] == [
        ("calculator", {"expression": "6 * 7"}),
        ("clock", {}),
    ]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('calculator {"expression": "6 *', "are not one JSON object"),
        ("calculator", "are not one JSON object"),
        ("calculator [1, 2]", "must be a JSON object"),
        ('{"expression": "1"}', "does not start with a tool name"),
        ('calculator {"x": NaN}', "NaN is not a JSON number"),
    ],
)
def test_bad_lines_are_errors_for_the_model(text: str, problem: str) -> None:
    with pytest.raises(ParseError) as caught:
        TemplateChain().parse(text)
    assert problem in caught.value.model_message
