"""The testing kit: ScriptedModel and the sandbox fixture."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

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


def test_the_kits_examples_follow_the_hypothesis_profile_in_use(tmp_path: Path) -> None:
    """The conformance kit runs as many examples as the profile chosen with pytest's
    ``--hypothesis-profile`` (not a hard-coded 150), a quarter of them for its expensive
    property; ``profile_examples(n)`` scales a plugin's own property the same way (n under
    hypothesis's default of 100)."""
    (tmp_path / "conftest.py").write_text(
        "from hypothesis import settings\n"
        "settings.register_profile('gent-kit-few', max_examples=8)\n"
    )
    (tmp_path / "test_kit_profile.py").write_text(
        "from gent_core.testing._conformance import chains, formats, terminations\n"
        "\n"
        "def test_profile() -> None:\n"
        "    assert formats._SETTINGS.max_examples == 8\n"
        "    assert terminations._SETTINGS.max_examples == 8\n"
        "    assert chains._SETTINGS.max_examples == 8\n"
        "    cut = chains.ChainConformance.test_a_truncated_call_is_never_returned\n"
        "    assert cut._hypothesis_internal_use_settings.max_examples == 2\n"
        "\n"
        "def test_own_properties() -> None:\n"
        "    from gent_core.testing import profile_examples\n"
        "    assert profile_examples(150).max_examples == 12\n"
        "    assert profile_examples(10).max_examples == 1\n"
    )
    # One run: 8 examples (2 for the expensive property, 12 for a property of 150) are neither
    # hypothesis's default (100) nor the kit's old fixed 150, so only a kit that follows the
    # profile passes.
    done = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"),
            *("-p", "no:xdist", "--hypothesis-profile=gent-kit-few", str(tmp_path)),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    assert "2 passed" in done.stdout, done.stdout + done.stderr


def test_the_plain_format_writes_nested_sections_and_refuses_to_parse() -> None:
    from gent_core.sections import FormattedSection
    from gent_core.testing import PlainFormat

    fmt = PlainFormat()
    text = fmt.format_sections(
        [FormattedSection("observation", children=[FormattedSection("add", "5")])]
    )
    assert text == "[observation]\n  [add]\n  5"
    with pytest.raises(NotImplementedError, match="only writes"):
        fmt.parse(text, ["observation"])


def test_the_stub_chain_reads_and_writes_bare_tool_names() -> None:
    from gent_core.testing import StubChain
    from gent_core.toolchain import ToolCall, has_toolchain

    chain = StubChain(guidance="Name a tool.")
    calls = chain.parse("\n search \n\nfetch\n")
    assert [(call.tool, call.id) for call in calls] == [("search", "call_0"), ("fetch", "call_1")]
    assert chain.format_calls(calls) == "search\nfetch"
    assert chain.guidance == "Name a tool." and has_toolchain([chain])
    with pytest.raises(ValueError, match="cannot write arguments"):
        chain.format_calls([ToolCall("search", {"query": "x"})])
