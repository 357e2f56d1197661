"""Tests of the template format: the gent conformance kit, then the format's own rules.

The kit checks round trips, streaming, linear time, the grammar, stop sequences...
"""

from __future__ import annotations

from gent_core.testing import FormatConformance, PluginSandbox

from gent_template import plugin
from gent_template.plugin import TemplateFormat


class TestTemplateFormat(FormatConformance):
    """Every check of the kit, on this format."""

    def make_format(self) -> TemplateFormat:
        return TemplateFormat()


def test_the_plugin_supplies_the_format(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(plugin, "template")
    created = gent_plugins.registry().create("format", "template")
    assert isinstance(created, TemplateFormat)


def test_sections_are_fenced_and_read_back() -> None:
    fmt = TemplateFormat()
    text = "Let me see.\n::: thinking\nsix times seven\n::: /thinking\n::: ANSWER\n42\n::: /answer"
    result = fmt.parse(text, ["thinking", "answer"])
    assert [(section.name, section.content) for section in result] == [
        ("thinking", "six times seven"),
        ("answer", "42"),
    ]
    assert result.outside == "Let me see."


def test_content_with_a_closing_line_gets_a_longer_fence() -> None:
    fmt = TemplateFormat()
    written = fmt.format_section("answer", "::: /answer\nstill the answer")
    assert written.startswith(":::: answer\n")
    assert fmt.parse(written, ["answer"]).get("answer") == ["::: /answer\nstill the answer"]


def test_an_output_cut_inside_a_section_is_incomplete() -> None:
    result = TemplateFormat().parse("::: answer\nthe answer is", ["answer"])
    assert result.truncated is not None
    assert result.truncated.content == "the answer is"
