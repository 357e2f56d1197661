"""The ``llamacpp`` model: a GGUF model run in-process by a llama.cpp binding.

The binding is an implementation detail chosen by the ``binding`` option
(:mod:`gent_llamacpp.engine`): xllamacpp's prebuilt wheels by default, llama-cpp-python on
request. Generation runs in a worker thread that feeds an asyncio queue, so the event loop
never blocks; the worker waits when the reader is :data:`MAX_CHUNKS_AHEAD` chunks behind, so
whatever the machine's speed it never generates far past what is read, and a flag checked
between tokens and between prompt batches stops it when the stream is closed early or the task
is cancelled (Ctrl-C). With an output structure, the prompt is a
few-shot completion prompt in the agent's own format and the output is constrained by a GBNF
grammar built from the structure (:func:`gent_prompt.checked_agent_grammar`).

Grammar safety: every grammar is checked by gent's pure-Python checker
(:func:`gent_core.grammar.check_gbnf`), then by llama.cpp's own parser. A grammar failing
either check is not used: generation runs unconstrained and a warning is logged, so the agent
keeps running (its parsers still report messy output).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from gent_prompt import TRANSCRIPT_STOP, render_prompt

from gent_core.errors import ModelError
from gent_core.model import (
    Model,
    ModelChunk,
    ModelIdentity,
    ModelRequest,
    OutputStructure,
    Usage,
)
from gent_llamacpp.engine import Engine, GrammarRejected, Sampling
from gent_llamacpp.options import LlamaCppOptions, parse_options
from gent_llamacpp.stops import StopMatcher
from gent_llamacpp.threads import Threads, available_cores, resolve_threads

__all__ = ["GenerationStats", "LlamaCppModel"]

logger = logging.getLogger("gent.llamacpp")

_Item = tuple[str, Any]
_UNCONSTRAINED = "llama.cpp rejected the agent grammar; generating unconstrained"

MAX_CHUNKS_AHEAD = 8
"""Text chunks the worker may generate before the stream's reader takes them; then it waits
(checking for cancellation), so closing the stream early wastes at most this many tokens."""


@dataclass(frozen=True)
class GenerationStats:
    """Timings of the last generation (for benchmarks and logs).

    Attributes:
        prompt_tokens: Tokens in the prompt.
        output_tokens: Tokens generated.
        prompt_seconds: Time to evaluate the (uncached part of the) prompt.
        generation_seconds: Time from the first sampled token to the end.
        grammar: Whether a grammar constrained the output.
        resampled: Tokens the grammar refused and that were sampled again under it (``None``
            when the binding does not report it).
        binding: The llama.cpp binding that generated (``xllamacpp``, ``llama-cpp-python``).
        finish: How generation ended: ``stop``, ``length`` or ``cancelled``.
    """

    prompt_tokens: int
    output_tokens: int
    prompt_seconds: float
    generation_seconds: float
    grammar: bool
    resampled: int | None
    binding: str = ""
    finish: str = ""

    @property
    def tokens_per_second(self) -> float:
        """Generated tokens per second, prompt evaluation excluded."""
        return self.output_tokens / self.generation_seconds if self.generation_seconds else 0.0


class LlamaCppModel(Model):
    """A local GGUF model (default: Gemma 3 270M) run in-process by a llama.cpp binding.

    Args:
        **options: See :class:`~gent_llamacpp.options.LlamaCppOptions` (``model_path``,
            ``binding``, ``n_ctx``, ``n_threads``, ``seed``, ``temperature``, ``max_tokens``,
            ``grammar``, ``few_shot``...).

    Raises:
        ConfigError: For an unknown or invalid option.
    """

    supports_images = False
    max_concurrent_requests = 1  # generates for one request at a time (gent eval reads it)

    def __init__(self, **options: Any) -> None:
        self.options: LlamaCppOptions = parse_options(options)
        self._engine: Engine | None = None
        self._path: str | None = self.options.model_path
        self._load_lock = threading.Lock()
        self._generate_lock = threading.Lock()
        self.load_seconds: float | None = None
        self.threads: Threads | None = None
        """The CPU threads of the loaded model (``None`` before :meth:`load`)."""
        self.last_stats: GenerationStats | None = None

    # ----------------------------------------------------------------- lifecycle

    @property
    def binding(self) -> str | None:
        """The binding of the loaded model (``None`` before :meth:`load`)."""
        return self._engine.binding if self._engine is not None else None

    def _load_sync(self) -> None:
        with self._load_lock:
            if self._engine is not None:
                return
            from gent_llamacpp.engine import EngineOptions, open_engine, resolve_binding

            binding = resolve_binding(self.options.binding)
            if self._path is None:
                from gent_llamacpp.bundled_model import model_file

                self._path = str(model_file())
            if not os.path.isfile(self._path):
                raise ModelError(f"model file not found: {self._path}")
            options = self.options
            threads = resolve_threads(
                options.n_threads, options.n_threads_batch, cores=available_cores()
            )
            started = time.perf_counter()
            self._engine = open_engine(
                binding,
                self._path,
                EngineOptions(
                    n_ctx=options.n_ctx,
                    n_threads=threads.generation,
                    n_threads_batch=threads.batch,
                    seed=options.seed,
                    verbose=options.verbose,
                ),
            )
            self.threads = threads
            self.load_seconds = time.perf_counter() - started

    async def load(self) -> None:
        """Load the model weights (in a worker thread); later calls do nothing."""
        if self._engine is None:
            await asyncio.to_thread(self._load_sync)

    async def aclose(self) -> None:
        """Release the model weights."""
        engine, self._engine = self._engine, None
        if engine is not None:
            await asyncio.to_thread(self._close_engine, engine)

    def _close_engine(self, engine: Engine) -> None:
        with self._generate_lock:
            engine.close()

    def identity(self) -> ModelIdentity:
        """Provider ``llamacpp``, the model file's name, ``text_completion`` (a raw prompt)."""
        name = os.path.basename(self._path) if self._path else "gemma-3-270m"
        return ModelIdentity(provider="llamacpp", name=name, operation="text_completion")

    def describe(self) -> str:
        """``"llamacpp <model file name>"``; once loaded, followed by the CPU threads it runs
        on (``"(threads: 1, prompt 2)"``, see :meth:`Threads.describe
        <gent_llamacpp.threads.Threads.describe>`), so ``gent run``'s "model ... ready" line
        shows what the defaults chose.
        """
        name = os.path.basename(self._path) if self._path else "gemma-3-270m (default)"
        if self.threads is None:
            return f"llamacpp {name}"
        return f"llamacpp {name} (threads: {self.threads.describe()})"

    def __repr__(self) -> str:
        return f"LlamaCppModel({self.describe()!r})"

    # ----------------------------------------------------------------- grammar

    def grammar(self, structure: OutputStructure | None) -> str | None:
        """Return the checked GBNF grammar for ``structure``, or ``None`` when none applies
        (no structure, grammars disabled, or a grammar that failed a check).

        ``gent describe`` prints it; before the model is loaded only gent's own checker has
        seen it (llama.cpp's parser checks it again at generation time).
        """
        if structure is None or not self.options.grammar:
            return None
        from gent_prompt import checked_agent_grammar

        text = checked_agent_grammar(structure, logger)
        if text is None:
            return None
        if self._engine is not None and self._engine.accepts_grammar(text) is False:
            logger.warning(_UNCONSTRAINED)
            return None
        return text

    # ----------------------------------------------------------------- generation

    def prompt_for(self, request: ModelRequest) -> str:
        """The raw prompt sent for ``request`` (see :func:`gent_prompt.render_prompt`)."""
        return render_prompt(request.messages, request.structure, few_shot=self.options.few_shot)

    def render_request(self, request: ModelRequest) -> str:
        """The raw prompt the model reads for ``request``, few-shot example included."""
        return self.prompt_for(request)

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        """Generate for ``request`` chunk by chunk; the last chunk has usage and finish reason.

        Closing the iterator early, or cancelling the task consuming it, stops generation
        before the next token (or the next prompt batch).

        Raises:
            ModelError: When the model cannot be loaded or the prompt does not fit ``n_ctx``.
        """
        await self.load()
        prompt = self.prompt_for(request)
        stops = list(request.stop)
        if request.structure is None:
            stops.append(TRANSCRIPT_STOP)
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[_Item] = asyncio.Queue()
        cancel = threading.Event()
        room = threading.Semaphore(MAX_CHUNKS_AHEAD)

        def emit(kind: str, value: Any) -> None:
            if kind == "text":
                while not room.acquire(timeout=0.05):  # the reader is behind: wait for it
                    if cancel.is_set():
                        return
            try:
                loop.call_soon_threadsafe(queue.put_nowait, (kind, value))
            except RuntimeError:  # the event loop is gone: nobody is listening
                cancel.set()

        def work() -> None:
            try:
                grammar = self.grammar(request.structure)
                self._generate(prompt, request, grammar, stops, cancel, emit)
            except BaseException as error:  # noqa: BLE001 - handed to the consumer
                emit("error", error)

        worker = loop.run_in_executor(None, work)
        try:
            while True:
                kind, value = await queue.get()
                if kind == "text":
                    room.release()
                    yield ModelChunk(value)
                elif kind == "done":
                    yield value
                    break
                else:
                    raise value
        finally:
            cancel.set()
            await asyncio.shield(worker)

    def _sampling(self, request: ModelRequest) -> Sampling:
        """The sampling settings of ``request``: its temperature, else the options'."""
        options = self.options
        temperature = (
            request.temperature if request.temperature is not None else options.temperature
        )
        return Sampling(
            temperature=temperature,
            top_k=options.top_k,
            top_p=options.top_p,
            min_p=options.min_p,
            repeat_penalty=options.repeat_penalty,
            seed=options.seed,
        )

    def _generate(
        self,
        prompt: str,
        request: ModelRequest,
        grammar: str | None,
        stops: list[str],
        cancel: threading.Event,
        emit: Callable[[str, Any], None],
    ) -> None:
        sampling = self._sampling(request)
        with self._generate_lock:
            engine = self._engine
            if engine is None:
                raise ModelError("the model was closed")
            matcher = StopMatcher(stops)

            def on_text(text: str) -> bool:
                text = matcher.feed(text)
                if text:
                    emit("text", text)
                return matcher.stopped

            def run(grammar: str | None) -> Any:
                return engine.generate(
                    prompt,
                    max_tokens=request.max_tokens or self.options.max_tokens,
                    sampling=sampling,
                    grammar=grammar,
                    stops=stops,
                    on_text=on_text,
                    cancelled=cancel.is_set,
                )

            try:
                result = run(grammar)
            except GrammarRejected:
                logger.warning(_UNCONSTRAINED)
                grammar = None
                result = run(None)
            self.last_stats = GenerationStats(
                prompt_tokens=result.prompt_tokens,
                output_tokens=result.output_tokens,
                prompt_seconds=result.prompt_seconds,
                generation_seconds=result.generation_seconds,
                grammar=grammar is not None,
                resampled=result.resampled,
                binding=engine.binding,
                finish=result.finish,
            )
            rest = matcher.flush()
            if rest:
                emit("text", rest)
            finish = "stop" if matcher.stopped else result.finish
            usage = Usage(input_tokens=result.prompt_tokens, output_tokens=result.output_tokens)
            emit("done", ModelChunk("", usage=usage, finish_reason=finish))
