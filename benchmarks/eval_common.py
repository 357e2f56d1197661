"""Shared pieces of the eval benchmarks: a local llama_cpp.server (or llama.cpp's own
llama-server) serving the bundled Gemma 3 270M model, gent's agent config for it, the shipped
suite, and judging a peer's run with the suite's own checks.

llama_cpp.server (llama-cpp-python's OpenAI-compatible server) has no parallel slots: every
request waits for one lock, and by default a new request *interrupts* the one streaming
(``--interrupt_requests``). The benchmarks turn the interruption off, so concurrent clients
queue instead of cutting each other's answers short.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ["LANGSMITH_TRACING"] = "false"
os.environ["LANGCHAIN_TRACING_V2"] = "false"

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

SUITE = REPO / "evals" / "basic-tools.yaml"
MODEL_NAME = "gemma-3-270m"
SERVER_START_DEADLINE = 120.0
TEMPERATURE = 0.2
"""The bundled llamacpp model's default temperature, used by every agent here."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def llama_server(n_ctx: int = 8192, threads: int | None = None) -> Iterator[str]:
    """Start ``python -m llama_cpp.server`` on the bundled model; yield its ``.../v1`` URL."""
    from gent_llamacpp.bundled_model import model_file

    port = free_port()
    threads = threads or os.cpu_count() or 1
    command = [
        sys.executable,
        "-m",
        "llama_cpp.server",
        "--model",
        str(model_file()),
        "--model_alias",
        MODEL_NAME,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        str(n_ctx),
        "--n_threads",
        str(threads),
        "--n_threads_batch",
        str(threads),
        "--interrupt_requests",
        "False",
        # The model file carries no chat template, and llama-cpp-python would fall back to
        # Llama 2's ([INST] <<SYS>>): chat clients (smolagents) get Gemma's own format.
        "--chat_format",
        "gemma",
    ]
    with serve(command, f"http://127.0.0.1:{port}/v1/models", "llama_cpp.server"):
        yield f"http://127.0.0.1:{port}/v1"


@contextlib.contextmanager
def llama_cpp_server(
    binary: str | os.PathLike[str],
    slots: int,
    n_ctx_per_slot: int = 8192,
    threads: int | None = None,
) -> Iterator[str]:
    """Start llama.cpp's own ``llama-server`` on the bundled model with ``slots`` parallel
    slots (continuous batching: one decode step serves every active request); yield its
    ``.../v1`` URL. Every slot gets ``n_ctx_per_slot`` tokens of context. For the completions
    API: the model file carries no chat template."""
    from gent_llamacpp.bundled_model import model_file

    port = free_port()
    threads = threads or os.cpu_count() or 1
    command = [
        str(binary),
        "--model",
        str(model_file()),
        "--alias",
        MODEL_NAME,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--parallel",
        str(slots),
        "--ctx-size",
        str(n_ctx_per_slot * slots),
        "--threads",
        str(threads),
        "--threads-batch",
        str(threads),
    ]
    with serve(command, f"http://127.0.0.1:{port}/health", "llama-server"):
        yield f"http://127.0.0.1:{port}/v1"


@contextlib.contextmanager
def serve(command: list[str], ready_url: str, name: str) -> Iterator[None]:
    """Run a model server's ``command`` until ``ready_url`` answers 200; stop it on exit."""
    # A SIGTERM (timeout, kill) unwinds like an exception, so the server is always stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + SERVER_START_DEADLINE
            while True:
                if process.poll() is not None:
                    log.seek(0)
                    raise RuntimeError(f"{name} exited: {log.read()[-2000:]!r}")
                try:
                    with urllib.request.urlopen(ready_url, timeout=2) as response:
                        if response.status == 200:
                            break
                except OSError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{name} did not start in time")
                time.sleep(0.25)
            yield
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=15)


def gent_config(
    base_url: str, *, grammar: bool = True, fmt: str = "xml", chain: str = "json"
) -> str:
    """gent's agent config for the server: the completions API (base model, few-shot prompt)."""
    return f"""\
model:
  name: openai
  base_url: {base_url}
  api_key: none
  model: {MODEL_NAME}
  api: completions
  grammar: {str(grammar).lower()}
  temperature: {TEMPERATURE}
format: {fmt}
toolchain: {chain}
termination: text
tools: [calculator, current_time]
"""


def load_tasks(limit: int | None = None, ids: Sequence[str] = ()) -> Any:
    """The shipped suite's tasks (the first ``limit``, or those named)."""
    from gent_eval import load_suite

    suite = load_suite(SUITE)
    if ids:
        suite = suite.select(ids)
    tasks = suite.tasks[:limit] if limit else suite.tasks
    return suite, tasks


def versions() -> str:
    from importlib import metadata

    names = ["llama-cpp-python", "langchain-classic", "langchain-openai", "smolagents"]
    found = []
    for name in names:
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name} (not installed)")
    return ", ".join(found)


# ----------------------------------------------------------------- peers


@dataclass
class PeerRun:
    """What a peer's run on one task gave, in the terms of gent's checks."""

    task: str
    answer: str | None
    calls: list[Any] = field(default_factory=list)
    steps: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    seconds: float = 0.0
    stop: str = "answer"
    error: str | None = None
    passed: bool = False
    failure: str = ""


class ToolRecorder:
    """Runs gent's real tools for a peer framework and records each call like gent does."""

    def __init__(self) -> None:
        from gent_core._plugins.manager import get_plugin_manager
        from gent_core._plugins.registry import Registry

        registry = Registry.from_plugin_manager(get_plugin_manager())
        self.tools = {
            name: registry.get("tool", name).factory for name in ("calculator", "current_time")
        }
        self.calls: list[Any] = []

    def call(self, tool: str, args: dict[str, Any]) -> tuple[bool, Any]:
        """Run ``tool``; return (success, output or the model-facing error text)."""
        from gent_core._serialize import to_jsonable
        from gent_core.errors import GentError
        from gent_core.records import ToolCallRecord
        from gent_core.testing import run_tool_sync

        try:
            result = run_tool_sync(self.tools[tool], args)  # type: ignore[arg-type]
        except GentError as error:
            self.calls.append(
                ToolCallRecord(str(len(self.calls)), tool, args, "error", None, error.model_message)
            )
            return False, error.model_message
        except Exception as error:  # noqa: BLE001 - reported to the agent like gent does
            text = f"{type(error).__name__}: {error}"
            self.calls.append(ToolCallRecord(str(len(self.calls)), tool, args, "error", None, text))
            return False, text
        output = to_jsonable(result.output)
        self.calls.append(ToolCallRecord(str(len(self.calls)), tool, args, "success", output))
        return True, output


def judge(task: Any, run: PeerRun) -> PeerRun:
    """Apply the suite's checks to a peer's run (answered and every check passes)."""
    from gent_eval.checks import CheckContext

    from gent_core.records import RunResult, RunStats, StepRecord

    answered = run.answer is not None and run.error is None
    steps = [StepRecord(1, "", "action", calls=list(run.calls))]
    if answered:
        steps.append(StepRecord(2, "", "answer", answer=run.answer))
    result = RunResult(
        run.answer if answered else None,
        "answer" if answered else "max_steps",  # type: ignore[arg-type]
        run.stop,
        steps,
        RunStats(steps=run.steps),
        task.text,
    )
    outcomes = [
        check.evaluate(CheckContext(task.text, result, Path.cwd())) for check in task.checks
    ]
    run.passed = answered and all(outcome.passed for outcome in outcomes)
    if not answered:
        run.failure = run.error or f"no answer ({run.stop})"
    else:
        run.failure = "; ".join(f"{o.check}: {o.detail}" for o in outcomes if not o.passed)
    return run
