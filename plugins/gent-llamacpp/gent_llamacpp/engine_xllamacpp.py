"""The ``xllamacpp`` engine: llama.cpp's server loop, in-process, from a prebuilt wheel.

xllamacpp runs llama.cpp's server (slots, prompt cache, samplers) in a thread of this process
and hands each request's streamed chunks to a Python callback; returning true from the callback
cancels the request. The engine asks for a chunk per token and, with ``return_progress``, one
per prompt batch of :data:`~gent_llamacpp.engine.PROMPT_BATCH` tokens, so cancellation is
checked between tokens and between prompt batches. Grammars are applied by llama.cpp's
``common_sampler``, which samples freely and constrains only a refused token, as gent's own
sampler does for llama-cpp-python.

Three things the server does that an in-process model must not are undone here:

* it listens for HTTP: on a UNIX socket in a private temporary directory instead of a TCP port
  (nothing else can reach it), removed on :meth:`XllamacppEngine.close`;
* it installs its own SIGINT and SIGTERM handlers (Ctrl-C would stop the server, not the
  program): the process's handlers are saved before and restored after it starts;
* it logs to stderr: off unless the ``verbose`` option is set.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import Any

from gent_core.errors import ModelError
from gent_llamacpp.engine import (
    PROMPT_BATCH,
    Binding,
    EngineOptions,
    EngineResult,
    GrammarRejected,
    Sampling,
    context_error,
)

__all__ = ["XllamacppEngine"]

_SIGNALS = ("SIGINT", "SIGTERM")


@contextlib.contextmanager
def _signal_handlers_kept() -> Iterator[None]:
    """Restore the process's SIGINT and SIGTERM handlers after the block, at the C level
    (``sigaction``), so it works from any thread. Each ``struct sigaction`` is saved as opaque
    bytes: nothing depends on its layout.
    """
    if sys.platform == "win32":  # no sigaction; the server adds a console handler instead
        yield
        return
    libc = ctypes.CDLL(None, use_errno=True)
    saved = []
    for name in _SIGNALS:
        number = int(getattr(signal, name))
        action = ctypes.create_string_buffer(512)  # larger than any platform's struct
        if libc.sigaction(number, None, action) == 0:
            saved.append((number, action))
    try:
        yield
    finally:
        for number, action in saved:
            libc.sigaction(number, action, None)


class XllamacppEngine:
    """A GGUF model run by xllamacpp's in-process llama.cpp server.

    Raises:
        ModelError: When the server cannot load the model.
    """

    binding: Binding = "xllamacpp"

    def __init__(self, path: str, options: EngineOptions) -> None:
        import xllamacpp

        self._n_ctx = options.n_ctx
        self._grammar_ok: dict[str, bool] = {}
        self._socket_dir = tempfile.mkdtemp(prefix="gent-llamacpp-")  # mode 0700
        params = xllamacpp.CommonParams()
        params.model.path = path
        params.n_ctx = options.n_ctx
        params.n_parallel = 1
        params.n_batch = PROMPT_BATCH
        params.n_ubatch = PROMPT_BATCH
        params.cpuparams.n_threads = options.n_threads
        params.cpuparams_batch.n_threads = options.n_threads_batch
        if options.poll is not None:
            params.cpuparams.poll = options.poll
            params.cpuparams_batch.poll = options.poll
        params.warmup = False
        params.cache_prompt = True
        params.hostnames = [os.path.join(self._socket_dir, "llama.sock")]
        params.verbosity = 3 if options.verbose else -1
        if options.seed is not None:
            params.sampling.seed = options.seed
        try:
            with _signal_handlers_kept():
                self._server: Any = xllamacpp.Server(params)
        except RuntimeError as error:
            shutil.rmtree(self._socket_dir, ignore_errors=True)
            raise ModelError(f"cannot load model {path}: {error}") from error

    def accepts_grammar(self, text: str) -> bool | None:
        """Known once a request used ``text`` (the server parses a grammar per request)."""
        return self._grammar_ok.get(text)

    def generate(
        self,
        prompt: str,
        *,
        max_tokens: int,
        sampling: Sampling,
        grammar: str | None,
        stops: list[str],
        on_text: Callable[[str], bool],
        cancelled: Callable[[], bool],
    ) -> EngineResult:
        """See :meth:`gent_llamacpp.engine.Engine.generate`."""
        request: dict[str, Any] = {
            "prompt": prompt,
            "max_tokens": max_tokens,
            "stream": True,
            "return_progress": True,
            "timings_per_token": True,
            "cache_prompt": True,
            "temperature": sampling.temperature,
            "top_k": sampling.top_k,
            "top_p": sampling.top_p,
            "min_p": sampling.min_p,
            "repeat_penalty": sampling.repeat_penalty,
            "stop": [stop for stop in stops if stop],
        }
        if sampling.seed is not None:
            request["seed"] = sampling.seed
        if grammar is not None:
            request["grammar"] = grammar
        reader = _ChunkReader(on_text, cancelled)
        started = time.perf_counter()
        self._server.handle_completions(request, reader)
        if reader.error is not None:
            raise self._error(reader.error, grammar)
        if grammar is not None:
            self._grammar_ok[grammar] = True
        finish = reader.finish or ("cancelled" if reader.cancelled else "stop")
        timings = reader.timings
        prompt_seconds = timings.get("prompt_ms", 0.0) / 1000
        generation_seconds = timings.get("predicted_ms", 0.0) / 1000
        if reader.cancelled or not timings:
            elapsed = time.perf_counter() - started
            generation_seconds = max(0.0, elapsed - prompt_seconds)
        return EngineResult(
            prompt_tokens=reader.prompt_tokens,
            output_tokens=int(timings.get("predicted_n", 0)),
            prompt_seconds=prompt_seconds,
            generation_seconds=generation_seconds,
            finish=finish,
        )

    def _error(self, error: dict[str, Any], grammar: str | None) -> ModelError:
        message = str(error.get("message", error))
        if error.get("type") == "exceed_context_size_error":
            return context_error(int(error.get("n_prompt_tokens", 0)), self._n_ctx)
        if grammar is not None and "grammar" in message:
            self._grammar_ok[grammar] = False
            return GrammarRejected(f"llama.cpp rejected the grammar: {message}")
        return ModelError(f"llama.cpp failed: {message}")

    def close(self) -> None:
        """Stop the server and free the model."""
        server, self._server = self._server, None
        del server  # the server's destructor stops its loop and frees the model
        shutil.rmtree(self._socket_dir, ignore_errors=True)


class _ChunkReader:
    """The server's chunk callback: passes text on, tracks the end, answers "cancel?"."""

    def __init__(self, on_text: Callable[[str], bool], cancelled: Callable[[], bool]) -> None:
        self._on_text = on_text
        self._cancelled = cancelled
        self.error: dict[str, Any] | None = None
        self.finish: str | None = None
        self.cancelled = False
        self.stopped = False
        self.timings: dict[str, float] = {}
        self.prompt_tokens = 0

    def __call__(self, chunk: Any) -> bool:
        try:
            return self._read(chunk)
        except BaseException as error:  # noqa: BLE001 - nothing may escape into C++
            self.error = {"message": f"{type(error).__name__}: {error}"}
            return True

    def _read(self, chunk: Any) -> bool:
        if isinstance(chunk, (str, bytes)):
            chunk = json.loads(chunk)
        if "error" in chunk:
            error = chunk["error"]
            self.error = error if isinstance(error, dict) else {"message": str(error)}
            return True
        timings = chunk.get("timings")
        if timings:
            self.timings = timings
            self.prompt_tokens = int(timings.get("cache_n", 0)) + int(timings.get("prompt_n", 0))
        progress = chunk.get("prompt_progress")
        if progress:
            self.prompt_tokens = int(progress.get("total", self.prompt_tokens))
        usage = chunk.get("usage")
        if usage:
            self.prompt_tokens = int(usage.get("prompt_tokens", self.prompt_tokens))
        for choice in chunk.get("choices") or []:
            text = choice.get("text") or ""
            if text and self._on_text(text):
                self.stopped = True
                self.finish = "stop"
                return True
            if choice.get("finish_reason"):
                self.finish = str(choice["finish_reason"])
        if self._cancelled():
            self.cancelled = True
            return True
        return False
