"""The real ``gent`` command, configured only through ``OTEL_*`` variables, exporting OTLP
(HTTP/protobuf) to a receiver the test starts on 127.0.0.1.

What concerns the process (its exit, its modules, a signal) runs ``gent`` in a subprocess;
the rest runs it in this process (:func:`gent_here`), with the spans gent-otel's own
provider still holds sent before the assertions (:func:`sent_spans`).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from gent_otel import provider
from otel_helpers import OTEL_VARIABLES
from otel_receiver import ReceivedSpan, TraceReceiver

from gent_core import PluginSelection
from gent_core.testing import PluginSandbox, run_cli

SECRET = "sk-otel-test-0123456789abcdef"

CONFIG = """\
model:
  name: scripted
  outputs:
    - '<action>{"tool": "calculator", "args": {"expression": "17 * 23"}}</action>'
    - '<answer>391</answer>'
tools: [calculator]
"""


@pytest.fixture
def receiver() -> Iterator[TraceReceiver]:
    server = TraceReceiver()
    try:
        yield server
    finally:
        server.close()


def clean_environment(tmp_path: Path) -> dict[str, str]:
    """This process's environment without the developer's ``OTEL_*`` and ``GENT_*`` variables,
    with the run history kept in ``tmp_path`` (never the developer's own)."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in OTEL_VARIABLES and not name.startswith(("GENT_", "OTEL_"))
    }
    env["GENT_HOME"] = str(tmp_path / "home")
    return env


def gent(
    tmp_path: Path, *args: str, config: str = CONFIG, **variables: str
) -> subprocess.CompletedProcess[str]:
    """``gent ARGS`` in ``tmp_path`` (with ``agent.yaml`` written there), with ``variables``
    added to :func:`clean_environment`."""
    (tmp_path / "agent.yaml").write_text(config, encoding="utf-8")
    env = clean_environment(tmp_path)
    env.update(variables)
    return subprocess.run(
        [sys.executable, "-m", "gent_core", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def sent_spans() -> Iterator[None]:
    """gent-otel's own providers made in this process by the test are shut down after it (the
    spans they hold are sent then) and forgotten, so the next test builds its own."""
    provider.reset()
    try:
        yield
    finally:
        provider.reset()


def gent_here(tmp_path: Path, *args: str, config: str = CONFIG) -> int:
    """``gent ARGS`` in this process (``agent.yaml`` written in ``tmp_path``, named by its
    path), with the plugins the environment selects (``GENT_DISABLE_PLUGINS``...) loaded as
    the command loads them, the process-wide plugin manager left as it was."""
    (tmp_path / "agent.yaml").write_text(config, encoding="utf-8")
    arguments = [str(tmp_path / "agent.yaml") if arg == "agent.yaml" else arg for arg in args]
    plugins = PluginSandbox(PluginSelection.from_environment())
    plugins.load_installed()
    with plugins.as_process_manager():
        return run_cli(arguments)


def by_name(spans: list[ReceivedSpan]) -> dict[str, list[ReceivedSpan]]:
    found: dict[str, list[ReceivedSpan]] = {}
    for span in spans:
        found.setdefault(span.name, []).append(span)
    return found


def test_gent_run_exports_its_spans_over_otlp_http(tmp_path: Path, receiver: TraceReceiver) -> None:
    done = gent(
        tmp_path,
        "run",
        "agent.yaml",
        "What is 17 * 23?",
        "-q",
        OTEL_EXPORTER_OTLP_ENDPOINT=receiver.endpoint,
        OTEL_SERVICE_NAME="calculator-agent",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "391"
    assert done.stderr == ""
    assert set(receiver.content_types) == {"application/x-protobuf"}
    spans = by_name(receiver.spans)
    assert sorted(spans) == ["chat scripted", "execute_tool calculator", "invoke_agent gent"]
    (run,) = spans["invoke_agent gent"]
    chats = spans["chat scripted"]
    (tool,) = spans["execute_tool calculator"]
    assert len(chats) == 2
    assert run.parent_span_id == b""
    assert {span.parent_span_id for span in [*chats, tool]} == {run.span_id}
    assert {span.trace_id for span in receiver.spans} == {run.trace_id}
    assert run.resource["service.name"] == "calculator-agent"
    assert run.scope == "gent_otel"
    assert run.attributes["gen_ai.operation.name"] == "invoke_agent"
    assert run.attributes["gen_ai.provider.name"] == "scripted"
    assert run.attributes["gent.run.stop_reason"] == "answer"
    assert run.attributes["gent.run.steps"] == 2
    assert run.attributes["gent.task.chars"] == len("What is 17 * 23?")
    assert run.attributes["gen_ai.usage.input_tokens"] == sum(
        chat.attributes["gen_ai.usage.input_tokens"] for chat in chats
    )
    assert sorted(chat.attributes["gent.step"] for chat in chats) == [1, 2]
    assert all(chat.attributes["gen_ai.response.finish_reasons"] == ("stop",) for chat in chats)
    assert tool.attributes["gen_ai.tool.name"] == "calculator"
    assert tool.attributes["gen_ai.tool.call.id"] == "call_0"
    assert tool.attributes["gent.tool.arguments.chars"] == len('{"expression": "17 * 23"}')
    assert tool.attributes["gent.tool.result.chars"] == len("391")
    assert "gen_ai.tool.call.arguments" not in tool.attributes  # content is opt-in


def test_a_credential_from_the_config_never_reaches_a_span(
    tmp_path: Path,
    receiver: TraceReceiver,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    sent_spans: None,
) -> None:
    config = (
        "prompt:\n"
        "  instructions: 'Sign requests with ${OTEL_TEST_API_TOKEN}.'\n"
        "model:\n"
        "  name: scripted\n"
        "  outputs:\n"
        f"""    - '<thinking>I hold {SECRET}</thinking><action>{{"tool": "calculator", """
        f""""args": {{"expression": "1 + 1 # {SECRET}"}}}}</action>'\n"""
        "    - '<answer>2</answer>'\n"
        "tools: [calculator]\n"
    )
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint)
    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true")
    monkeypatch.setenv("OTEL_TEST_API_TOKEN", SECRET)
    code = gent_here(tmp_path, "run", "agent.yaml", "What is 1 + 1?", "--json", config=config)
    provider.reset()  # the spans are sent
    done = capsys.readouterr()
    assert code == 0, done.err
    assert json.loads(done.out)["answer"] == "2"
    spans = by_name(receiver.spans)
    assert "invoke_agent gent" in spans
    captured = [
        (span.name, key, value)
        for span in receiver.spans
        for key, value in span.attributes.items()
        if isinstance(value, str)
    ]
    assert not [found for found in captured if SECRET in found[2]]
    # content was captured, with the credential masked where it was
    chat_inputs = [value for name, key, value in captured if key == "gen_ai.input.messages"]
    assert any("Sign requests with ***." in value for value in chat_inputs)
    outputs = [value for name, key, value in captured if key == "gen_ai.output.messages"]
    assert any("I hold ***" in value for value in outputs)
    (tool,) = spans["execute_tool calculator"]
    assert "***" in tool.attributes["gen_ai.tool.call.arguments"]
    (run,) = spans["invoke_agent gent"]
    assert "What is 1 + 1?" in run.attributes["gen_ai.input.messages"]  # the task as written


@pytest.mark.parametrize(
    ("switch", "value"),
    [("GENT_DISABLE_PLUGINS", "otel"), ("OTEL_SDK_DISABLED", "true")],
)
def test_tracing_can_be_switched_off(
    tmp_path: Path,
    receiver: TraceReceiver,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    sent_spans: None,
    switch: str,
    value: str,
) -> None:
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint)
    monkeypatch.setenv(switch, value)
    code = gent_here(tmp_path, "run", "agent.yaml", "What is 17 * 23?", "-q")
    provider.reset()  # what a provider would hold is sent
    done = capsys.readouterr()
    assert (code, done.out.strip(), done.err) == (0, "391", "")
    assert receiver.spans == []


def test_the_plugin_is_listed_and_can_be_disabled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert gent_here(tmp_path, "plugins", "--json") == 0
    (otel,) = [info for info in json.loads(capsys.readouterr().out) if info["name"] == "otel"]
    assert (otel["distribution"], otel["status"]) == ("gent-otel", "loaded")
    monkeypatch.setenv("GENT_DISABLE_PLUGINS", "otel")
    assert gent_here(tmp_path, "plugins", "--json") == 0
    (otel,) = [info for info in json.loads(capsys.readouterr().out) if info["name"] == "otel"]
    assert otel["status"] == "disabled"


def closed_port() -> int:
    """A port of 127.0.0.1 with nothing listening (bound, then closed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def silent_port(listener: socket.socket) -> int:
    """A port of 127.0.0.1 that accepts connections (the kernel completes them: ``listen``
    without ``accept``) and never answers."""
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    port: int = listener.getsockname()[1]
    return port


def one_warning(stderr: str) -> str:
    """The one line on stderr, checked to be gent-otel's warning and nothing of the SDK's."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert "Traceback" not in stderr
    assert not [line for line in lines if "Transient error" in line or "Failed to export" in line]
    assert len(lines) == 1, stderr
    assert lines[0].startswith("gent-otel: "), stderr
    return lines[0]


def test_a_receiver_that_is_down_never_fails_the_run_and_is_one_warning(tmp_path: Path) -> None:
    port = closed_port()
    done = gent(
        tmp_path,
        "run",
        "agent.yaml",
        "What is 17 * 23?",
        "-q",
        OTEL_EXPORTER_OTLP_ENDPOINT=f"http://127.0.0.1:{port}",
    )
    assert done.returncode == 0
    assert done.stdout.strip() == "391"
    warning = one_warning(done.stderr)
    assert f"127.0.0.1:{port}" in warning


def test_a_receiver_that_never_answers_is_one_warning(tmp_path: Path) -> None:
    with socket.socket() as listener:
        port = silent_port(listener)
        done = gent(
            tmp_path,
            "run",
            "agent.yaml",
            "What is 17 * 23?",
            "-q",
            OTEL_EXPORTER_OTLP_ENDPOINT=f"http://127.0.0.1:{port}",
            GENT_OTEL_EXIT_TIMEOUT="0.2",  # the exit gives up sooner than the default 1 s
        )
    assert done.returncode == 0
    assert done.stdout.strip() == "391"
    warning = one_warning(done.stderr)
    assert f"127.0.0.1:{port}" in warning


def test_ctrl_c_while_the_spans_are_flushed_at_exit_is_an_interruption(tmp_path: Path) -> None:
    """The answer is printed, the exit waits on a receiver that holds the spans: Ctrl-C then
    exits 130 with one line, as everywhere else (it was a traceback and exit status 0)."""
    (tmp_path / "agent.yaml").write_text(CONFIG, encoding="utf-8")
    env = clean_environment(tmp_path)
    receiver = TraceReceiver(held=True)
    env["OTEL_EXPORTER_OTLP_ENDPOINT"] = receiver.endpoint
    env["OTEL_EXPORTER_OTLP_TIMEOUT"] = "3600"  # the export waits for the receiver's answer
    env["OTEL_BSP_SCHEDULE_DELAY"] = "3600000"  # spans are sent at the exit only
    # The exit's bound raised to an hour, so the Ctrl-C below lands while it waits
    # however loaded the machine is (with 1 s it could land after the exit).
    env["GENT_OTEL_EXIT_TIMEOUT"] = "3600"
    process = subprocess.Popen(
        [sys.executable, "-m", "gent_core", "run", "agent.yaml", "What is 17 * 23?", "-q"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "391"
        assert receiver.arrived.wait(60), "the exit never sent the spans"
        process.send_signal(signal.SIGINT)
        # The receiver answers once Ctrl-C was sent: the exit's flush ends, then the process.
        receiver.release.set()
        _, stderr = process.communicate(timeout=60)
    finally:
        receiver.close()
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "interrupted" in stderr
    assert len([line for line in stderr.splitlines() if line.strip()]) <= 2, stderr
    assert {span.name for span in receiver.spans} >= {"invoke_agent gent"}


def test_nothing_configured_imports_no_sdk_and_says_nothing(tmp_path: Path) -> None:
    script = (
        "import sys, asyncio\n"
        "from gent_core import Agent, load_config\n"
        "agent = Agent.from_config(load_config('agent.yaml'))\n"
        "result = agent.run_sync('What is 17 * 23?')\n"
        "assert 'otel' in agent.plugin_manager.loaded_plugin_names()\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('opentelemetry'))\n"
        "print(result.answer, loaded)\n"
    )
    (tmp_path / "agent.yaml").write_text(CONFIG, encoding="utf-8")
    env = clean_environment(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "391 []", "")
