"""Tests of the template model back end, with gent's testing kit."""

from __future__ import annotations

import asyncio

import pytest
from gent_core.messages import Message
from gent_core.model import ModelRequest, Usage
from gent_core.testing import PluginSandbox

from gent_template import plugin
from gent_template.plugin import TemplateModel


def complete(model: TemplateModel, request: ModelRequest) -> tuple[str, list[str]]:
    async def drain() -> tuple[str, list[str]]:
        chunks = [chunk async for chunk in model.stream(request)]
        return "".join(chunk.text for chunk in chunks), [chunk.text for chunk in chunks]

    return asyncio.run(drain())


def test_the_plugin_supplies_the_model(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(plugin, "template")
    model = gent_plugins.registry().create("model", "template", prefix="> ")
    assert isinstance(model, TemplateModel)
    assert model.prefix == "> "


def test_it_repeats_the_last_user_message_in_chunks() -> None:
    request = ModelRequest([Message.of("system", "Be brief."), Message.of("user", "hello there")])
    text, chunks = complete(TemplateModel(chunk_size=4), request)
    assert text == "You said: hello there"
    assert chunks[:2] == ["You ", "said"]
    assert chunks[-1] == ""  # the last chunk carries the usage


def test_generation_stops_at_a_stop_sequence() -> None:
    request = ModelRequest([Message.of("user", "one. two. three.")], stop=[" two"])
    assert complete(TemplateModel(), request)[0] == "You said: one."


def test_usage_is_reported_on_the_last_chunk() -> None:
    async def last_usage() -> Usage | None:
        chunks = [chunk async for chunk in TemplateModel().stream(request)]
        return chunks[-1].usage

    request = ModelRequest([Message.of("user", "three words here")])
    usage = asyncio.run(last_usage())
    assert usage is not None
    assert (usage.input_tokens, usage.output_tokens) == (3, 5)


def test_a_bad_chunk_size_is_refused() -> None:
    with pytest.raises(ValueError, match="chunk_size"):
        TemplateModel(chunk_size=0)
