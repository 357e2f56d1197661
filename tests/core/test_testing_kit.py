"""The testing kit: ScriptedModel and the sandbox fixture."""

from __future__ import annotations

import asyncio

import pytest

from gent_core.errors import ModelError
from gent_core.messages import Message
from gent_core.model import ModelChunk, ModelRequest
from gent_core.testing import PluginSandbox, ScriptedModel


def collect(model: ScriptedModel, request: ModelRequest) -> list[ModelChunk]:
    async def run() -> list[ModelChunk]:
        return [chunk async for chunk in model.stream(request)]

    return asyncio.run(run())


def test_scripted_model_replays_outputs_in_chunks() -> None:
    model = ScriptedModel(["hello world", "second"], chunk_size=4)
    chunks = collect(model, ModelRequest([Message.user("hi there")]))
    assert [chunk.text for chunk in chunks] == ["hell", "o wo", "rld", ""]
    assert chunks[-1].finish_reason == "stop"
    assert chunks[-1].usage is not None and chunks[-1].usage.output_tokens == 2
    assert model.remaining == 1
    assert model.requests[0].messages[0].text == "hi there"


def test_scripted_model_cuts_at_the_first_stop_sequence() -> None:
    model = ScriptedModel(["<action>x</action> <observation>made up"])
    response = asyncio.run(
        model.complete(ModelRequest([Message.user("q")], stop=["<observation>", "zzz"]))
    )
    assert response.text == "<action>x</action> "


def test_scripted_model_out_of_outputs_is_a_model_error() -> None:
    model = ScriptedModel([])
    with pytest.raises(ModelError, match="no output left for call 1"):
        asyncio.run(model.complete(ModelRequest([Message.user("q")])))


def test_fixture_gives_an_isolated_manager(gent_plugins: PluginSandbox) -> None:
    assert gent_plugins.manager.plugin_infos == {}
    assert gent_plugins.registry().names("termination") == []
