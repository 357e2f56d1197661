"""When gent-otel traces, where to, and whether it records content: the OTEL_* variables and
an application's own tracer provider."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from gent_otel import exit as otel_exit
from gent_otel import provider
from gent_otel.exit import EXIT_FLUSH_SECONDS
from gent_otel.settings import (
    EXIT_TIMEOUT,
    EXPORT_TIMEOUT,
    capture_content,
    configured_exporters,
    exit_timeout,
    export_timeout,
    otlp_protocol,
    sdk_disabled,
)


@pytest.mark.parametrize(
    ("variables", "exporters"),
    [
        ({}, ()),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, ("otlp",)),
        ({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://x/v1/traces"}, ("otlp",)),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "  "}, ()),
        ({"OTEL_TRACES_EXPORTER": "console"}, ("console",)),
        ({"OTEL_TRACES_EXPORTER": " OTLP , console,otlp"}, ("otlp", "console")),
        ({"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://x"}, ()),
        ({"OTEL_TRACES_EXPORTER": "otlp,none"}, ()),
        ({"OTEL_TRACES_EXPORTER": "zipkin"}, ("zipkin",)),
    ],
)
def test_which_exporters_the_variables_ask_for(
    variables: dict[str, str], exporters: tuple[str, ...]
) -> None:
    assert configured_exporters(variables) == exporters


def test_switches() -> None:
    assert sdk_disabled({"OTEL_SDK_DISABLED": "TRUE"})
    assert not sdk_disabled({"OTEL_SDK_DISABLED": "false"})
    assert not sdk_disabled({})
    for on in ("true", "1", "SPAN_ONLY", "span_and_event"):
        assert capture_content({"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": on})
    for off in ("", "false", "NO_CONTENT", "EVENT_ONLY"):
        assert not capture_content({"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": off})
    assert otlp_protocol({}) == "http/protobuf"
    assert otlp_protocol({"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}) == "grpc"
    both = {
        "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
        "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "HTTP/Protobuf",
    }
    assert otlp_protocol(both) == "http/protobuf"


APPLICATION = """
import sys
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from gent_core import Agent, load_config

memory = InMemorySpanExporter()
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(memory))
trace.set_tracer_provider(provider)
agent = Agent.from_config(load_config("agent.yaml"))
with trace.get_tracer("app").start_as_current_span("handle request") as request:
    result = agent.run_sync("What is 2 + 2?")
spans = {span.name: span for span in memory.get_finished_spans()}
run = spans["invoke_agent gent"]
assert result.answer == "4", result
assert run.parent.span_id == request.get_span_context().span_id
assert spans["chat scripted"].parent.span_id == run.context.span_id
print(sorted(spans))
"""

CONFIG = """\
model:
  name: scripted
  outputs: ['<answer>4</answer>']
"""


def test_an_applications_global_provider_gets_the_spans(tmp_path: Path) -> None:
    """The Python API case: no OTEL_* variable, the application set a global provider; the
    run's span is a child of the application's current span."""
    (tmp_path / "agent.yaml").write_text(CONFIG, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GENT_", "OTEL_"))}
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(APPLICATION)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['chat scripted', 'handle request', 'invoke_agent gent']"
    assert done.stderr == ""


def test_exporters_gent_otel_cannot_make_are_warnings(caplog: pytest.LogCaptureFixture) -> None:
    try:
        assert provider.tracer({"OTEL_TRACES_EXPORTER": "zipkin"}) is None
        assert "OTEL_TRACES_EXPORTER names 'zipkin'" in caplog.text
        grpc = {"OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}
        if importlib.util.find_spec("opentelemetry.exporter.otlp.proto.grpc") is None:
            assert provider.tracer(grpc) is None
            assert "needs the package opentelemetry-exporter-otlp-proto-grpc" in caplog.text
        json_protocol = {"OTEL_EXPORTER_OTLP_PROTOCOL": "http/json", "OTEL_TRACES_EXPORTER": "otlp"}
        assert provider.tracer(json_protocol) is None
        assert "the OTLP protocol 'http/json' is not supported" in caplog.text
    finally:
        provider.reset()


@pytest.mark.parametrize(
    ("variables", "seconds"),
    [
        ({}, EXPORT_TIMEOUT),
        ({"OTEL_EXPORTER_OTLP_TIMEOUT": "2.5"}, 2.5),
        ({"OTEL_EXPORTER_OTLP_TIMEOUT": "5", "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT": "3"}, 3.0),
        ({"OTEL_EXPORTER_OTLP_TIMEOUT": "soon"}, EXPORT_TIMEOUT),
        ({"OTEL_EXPORTER_OTLP_TIMEOUT": "-1"}, EXPORT_TIMEOUT),
        ({"OTEL_EXPORTER_OTLP_TIMEOUT": "inf"}, EXPORT_TIMEOUT),
    ],
)
def test_the_export_timeout(variables: dict[str, str], seconds: float) -> None:
    assert EXPORT_TIMEOUT == 1.0  # not the SDK's 10 s
    assert export_timeout(variables) == seconds


@pytest.mark.parametrize(
    ("variables", "seconds"),
    [
        ({}, EXIT_TIMEOUT),
        ({"GENT_OTEL_EXIT_TIMEOUT": "0.2"}, 0.2),
        ({"GENT_OTEL_EXIT_TIMEOUT": " 30 "}, 30.0),
        ({"GENT_OTEL_EXIT_TIMEOUT": "soon"}, EXIT_TIMEOUT),
        ({"GENT_OTEL_EXIT_TIMEOUT": "0"}, EXIT_TIMEOUT),
        ({"GENT_OTEL_EXIT_TIMEOUT": "nan"}, EXIT_TIMEOUT),
        ({"OTEL_EXPORTER_OTLP_TIMEOUT": "5"}, EXIT_TIMEOUT),  # one request's bound, not the exit's
    ],
)
def test_the_exit_timeout(variables: dict[str, str], seconds: float) -> None:
    assert EXIT_TIMEOUT == EXIT_FLUSH_SECONDS == 1.0
    assert exit_timeout(variables) == seconds


def test_the_exit_waits_as_long_as_the_variable_says(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A provider whose flush never ends (a receiver that never answers): the exit gives up
    after ``GENT_OTEL_EXIT_TIMEOUT`` seconds and says so."""
    release = threading.Event()

    class Stuck:
        def shutdown(self) -> None:
            release.wait()

    monkeypatch.setenv("GENT_OTEL_EXIT_TIMEOUT", "0.05")
    try:
        otel_exit._end([Stuck()])
    finally:
        release.set()
    assert "(gave up after 0.05 s)" in caplog.text
