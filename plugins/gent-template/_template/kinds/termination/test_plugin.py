"""Tests of the template termination: the gent conformance kit, then its own rules."""

from __future__ import annotations

import pytest
from gent_core.errors import TerminationError
from gent_core.testing import PluginSandbox, TerminationConformance

from gent_template import plugin
from gent_template.plugin import TemplateTermination


class TestTemplateTermination(TerminationConformance):
    """Every check of the kit, on this termination."""

    def make_termination(self) -> TemplateTermination:
        return TemplateTermination()


def test_the_plugin_supplies_the_termination(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(plugin, "template")
    termination = gent_plugins.registry().create("termination", "template")
    assert isinstance(termination, TemplateTermination)


def test_the_answer_and_its_confidence() -> None:
    parsed = TemplateTermination().parse("\nIt is 42.\nConfidence: HIGH \n")
    assert parsed == {"answer": "It is 42.", "confidence": "high"}


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("It is 42.", "does not end with its confidence"),
        ("It is 42.\nConfidence: total", "unknown confidence 'total'"),
        ("Confidence: low", "the answer is empty"),
    ],
)
def test_what_is_wrong_is_said_to_the_model(text: str, problem: str) -> None:
    with pytest.raises(TerminationError) as caught:
        TemplateTermination().parse(text)
    assert problem in caught.value.model_message
