"""Fixtures for gent-otel: an in-memory span exporter, and agents whose runs it traces."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import gent_otel.plugin
import pytest
from gent_json.chain import JSONToolChain
from gent_otel.provider import use_tracer_provider
from gent_xml.format import XMLFormat
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from otel_helpers import OTEL_VARIABLES, TOOLS, MakeAgent

from gent_core import Agent, GentPluginManager
from gent_core.context import Limits

PLUGIN_SELECTION = ("GENT_PLUGINS", "GENT_DISABLE_PLUGINS", "GENT_STRICT_PLUGINS")
"""The variables that choose which plugins ``gent`` loads."""


@pytest.fixture(autouse=True)
def no_otel_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests start with no OTEL_* variable of the developer's environment, and no choice of
    plugins (the ``gent`` commands run in this process load them all)."""
    for name in (*OTEL_VARIABLES, "GENT_OTEL_EXIT_TIMEOUT", *PLUGIN_SELECTION):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def exporter() -> Iterator[InMemorySpanExporter]:
    """Every span of the runs in the test, finished, in an in-memory exporter."""
    memory = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(memory))
    use_tracer_provider(provider)
    try:
        yield memory
    finally:
        use_tracer_provider(None)
        provider.shutdown()


@pytest.fixture
def manager() -> GentPluginManager:
    """A plugin manager holding only the otel plugin."""
    plugins = GentPluginManager()
    plugins.register(gent_otel.plugin, name="otel")
    return plugins


@pytest.fixture
def make_agent(tmp_path: Path, manager: GentPluginManager) -> MakeAgent:
    def make(model: Any, tools: Sequence[Any] = TOOLS, **options: Any) -> Agent:
        options.setdefault("working_directory", tmp_path)
        options.setdefault("limits", Limits(max_steps=6))
        options.setdefault("plugin_manager", manager)
        return Agent(model, XMLFormat(), JSONToolChain(), tools=list(tools), **options)

    return make
