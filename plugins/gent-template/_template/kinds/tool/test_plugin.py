"""Tests of the template tool, with gent's testing kit (``gent_core.testing``)."""

from __future__ import annotations

import pytest
from gent_core.errors import InvalidToolArgumentsError
from gent_core.testing import PluginSandbox, run_tool_sync

from gent_template import plugin
from gent_template.plugin import LONG_TEXT, template


def test_the_plugin_supplies_the_tool(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(plugin, "template")
    assert gent_plugins.registry().create("tool", "template") is template


def test_the_model_reads_its_description_and_arguments() -> None:
    assert template.description == "Repeat a text and count its characters."
    properties = template.parameters["properties"]
    assert properties["text"] == {"type": "string", "description": "The text to repeat."}
    assert properties["times"]["maximum"] == 10
    assert template.parameters["required"] == ["text"]


def test_it_repeats_the_text() -> None:
    result = run_tool_sync(template, {"text": "ab", "times": "2"})  # "2" is coerced to 2
    assert result.ok
    assert result.output == {"text": "ab ab", "characters": 5}


def test_a_long_result_goes_to_the_clipboard() -> None:
    result = run_tool_sync(template, {"text": "x" * LONG_TEXT, "times": 2})
    assert result.output["characters"] == 2 * LONG_TEXT + 1
    assert result.clipboard_text == [" ".join(["x" * LONG_TEXT] * 2)]


def test_bad_arguments_are_explained_for_the_model() -> None:
    with pytest.raises(InvalidToolArgumentsError) as caught:
        run_tool_sync(template, {"text": "ab", "times": 11})
    assert "times" in caught.value.model_message
