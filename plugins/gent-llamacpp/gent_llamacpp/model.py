"""The ``llamacpp`` model: a GGUF model run in-process with llama-cpp-python.

Generation runs in a worker thread that feeds an asyncio queue, so the event loop never
blocks; a flag checked between tokens stops it when the stream is closed early. With an
output structure, the prompt is a few-shot completion prompt in the agent's own format and
the output is constrained by a GBNF grammar built from the structure
(:func:`gent_core.grammar.build_agent_grammar`).

Grammar safety: a grammar llama.cpp cannot parse makes its sampler constructor return NULL,
which llama-cpp-python would add to the sampler chain and crash on. Every grammar is
therefore checked twice before use: by gent's pure-Python checker
(:func:`gent_core.grammar.check_gbnf`), then by llama.cpp's own parser
(``llama_sampler_init_grammar`` on the loaded vocabulary, whose failure is a NULL return, not a
crash). A grammar failing either check is not used: generation runs unconstrained and a
warning is logged, so the agent keeps running (its parsers still report messy output).
"""

from __future__ import annotations

import asyncio
import codecs
import logging
import os
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from gent_core.base_prompt import TRANSCRIPT_STOP, render_prompt
from gent_core.errors import ModelError
from gent_core.model import (
    Model,
    ModelChunk,
    ModelIdentity,
    ModelRequest,
    OutputStructure,
    Usage,
)
from gent_llamacpp.options import LlamaCppOptions, parse_options
from gent_llamacpp.stops import StopMatcher

__all__ = ["GenerationStats", "LlamaCppModel"]

logger = logging.getLogger("gent.llamacpp")

_Item = tuple[str, Any]


@dataclass(frozen=True)
class GenerationStats:
    """Timings of the last generation (for benchmarks and logs).

    Attributes:
        prompt_tokens: Tokens in the prompt.
        output_tokens: Tokens generated.
        prompt_seconds: Time to evaluate the (uncached part of the) prompt.
        generation_seconds: Time from the first sampled token to the end.
        grammar: Whether a grammar constrained the output.
        resampled: Tokens the grammar refused and that were sampled again under it.
    """

    prompt_tokens: int
    output_tokens: int
    prompt_seconds: float
    generation_seconds: float
    grammar: bool
    resampled: int

    @property
    def tokens_per_second(self) -> float:
        """Generated tokens per second, prompt evaluation excluded."""
        return self.output_tokens / self.generation_seconds if self.generation_seconds else 0.0


class LlamaCppModel(Model):
    """A local GGUF model (default: Gemma 3 270M) run with llama-cpp-python.

    Args:
        **options: See :class:`~gent_llamacpp.options.LlamaCppOptions` (``model_path``,
            ``n_ctx``, ``n_threads``, ``seed``, ``temperature``, ``max_tokens``, ``grammar``,
            ``few_shot``...).

    Raises:
        ConfigError: For an unknown or invalid option.
    """

    supports_images = False
    max_concurrent_requests = 1  # generates for one request at a time (gent eval reads it)

    def __init__(self, **options: Any) -> None:
        self.options: LlamaCppOptions = parse_options(options)
        self._llm: Any = None
        self._path: str | None = self.options.model_path
        self._load_lock = threading.Lock()
        self._generate_lock = threading.Lock()
        self._grammar_ok: dict[str, bool] = {}
        self.load_seconds: float | None = None
        self.last_stats: GenerationStats | None = None

    # ----------------------------------------------------------------- lifecycle

    def _load_sync(self) -> None:
        with self._load_lock:
            if self._llm is not None:
                return
            try:
                import llama_cpp
            except ImportError as error:
                raise ModelError(
                    "llama-cpp-python is not installed",
                    hint="Install it with 'pip install llama-cpp-python'.",
                ) from error
            if self._path is None:
                from gent_llamacpp.model_file import model_file

                self._path = str(model_file())
            if not os.path.isfile(self._path):
                raise ModelError(f"model file not found: {self._path}")
            started = time.perf_counter()
            options = self.options
            from llama_cpp._utils import suppress_stdout_stderr

            try:
                # llama.cpp prints some notices straight to the process's stderr whatever
                # `verbose` says; they would break into the live view, so silence the load.
                with suppress_stdout_stderr(disable=options.verbose):
                    self._llm = llama_cpp.Llama(
                        model_path=self._path,
                        n_ctx=options.n_ctx,
                        n_threads=options.n_threads or os.cpu_count() or 1,
                        seed=(
                            options.seed
                            if options.seed is not None
                            else llama_cpp.LLAMA_DEFAULT_SEED
                        ),
                        verbose=options.verbose,
                    )
            except (ValueError, RuntimeError) as error:
                raise ModelError(f"cannot load model {self._path}: {error}") from error
            self.load_seconds = time.perf_counter() - started

    async def load(self) -> None:
        """Load the model weights (in a worker thread); later calls do nothing."""
        if self._llm is None:
            await asyncio.to_thread(self._load_sync)

    async def aclose(self) -> None:
        """Release the model weights."""
        llm, self._llm = self._llm, None
        if llm is not None:
            await asyncio.to_thread(self._close_llm, llm)

    def _close_llm(self, llm: Any) -> None:
        with self._generate_lock:
            close = getattr(llm, "close", None)
            if callable(close):
                close()

    def identity(self) -> ModelIdentity:
        """Provider ``llamacpp``, the model file's name, ``text_completion`` (a raw prompt)."""
        name = os.path.basename(self._path) if self._path else "gemma-3-270m"
        return ModelIdentity(provider="llamacpp", name=name, operation="text_completion")

    def describe(self) -> str:
        """``"llamacpp <model file name>"``."""
        name = os.path.basename(self._path) if self._path else "gemma-3-270m (default)"
        return f"llamacpp {name}"

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
        from gent_core.grammar import checked_agent_grammar

        text = checked_agent_grammar(structure, logger)
        if text is None:
            return None
        if self._llm is not None and not self._llama_accepts(text):
            logger.warning("llama.cpp rejected the agent grammar; generating unconstrained")
            return None
        return text

    def _llama_accepts(self, text: str) -> bool:
        if text not in self._grammar_ok:
            import llama_cpp

            sampler = llama_cpp.llama_sampler_init_grammar(
                self._llm._model.vocab, text.encode("utf-8"), b"root"
            )
            if sampler:
                llama_cpp.llama_sampler_free(sampler)
            self._grammar_ok[text] = bool(sampler)
        return self._grammar_ok[text]

    # ----------------------------------------------------------------- generation

    def prompt_for(self, request: ModelRequest) -> str:
        """The raw prompt sent for ``request`` (see :mod:`gent_core.base_prompt`)."""
        return render_prompt(request.messages, request.structure, few_shot=self.options.few_shot)

    def render_request(self, request: ModelRequest) -> str:
        """The raw prompt the model reads for ``request``, few-shot example included."""
        return self.prompt_for(request)

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        """Generate for ``request`` chunk by chunk; the last chunk has usage and finish reason.

        Closing the iterator early stops generation before the next token.

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

        def emit(kind: str, value: Any) -> None:
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
                    yield ModelChunk(value)
                elif kind == "done":
                    yield value
                    break
                else:
                    raise value
        finally:
            cancel.set()
            await asyncio.shield(worker)

    def _generate(
        self,
        prompt: str,
        request: ModelRequest,
        grammar: str | None,
        stops: list[str],
        cancel: threading.Event,
        emit: Callable[[str, Any], None],
    ) -> None:
        import llama_cpp

        from gent_llamacpp.sampling import TokenSampler, prepare_prompt

        options = self.options
        with self._generate_lock:
            llm = self._llm
            if llm is None:
                raise ModelError("the model was closed")
            tokens = llm.tokenize(prompt.encode("utf-8"), add_bos=True, special=False)
            room = options.n_ctx - len(tokens)
            if room <= 0:
                raise ModelError(
                    f"the prompt has {len(tokens)} tokens; the context window (n_ctx) is "
                    f"{options.n_ctx}",
                    hint="Raise the 'n_ctx' option or shorten the conversation.",
                )
            limit = min(request.max_tokens or options.max_tokens, room)
            temperature = (
                request.temperature if request.temperature is not None else options.temperature
            )
            matcher = StopMatcher(stops)
            decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
            vocab = llm._model.vocab
            generated = 0
            finish = "length"
            seed = options.seed if options.seed is not None else llama_cpp.LLAMA_DEFAULT_SEED
            sampler = TokenSampler(
                llm,
                temperature=temperature,
                top_k=options.top_k,
                top_p=options.top_p,
                min_p=options.min_p,
                seed=seed,
                grammar=grammar,
                repeat_penalty=options.repeat_penalty,
            )
            started = time.perf_counter()
            try:
                llm.eval(prepare_prompt(llm, tokens))
                prompt_done = time.perf_counter()
                while not cancel.is_set():
                    token = sampler.sample()
                    if llama_cpp.llama_vocab_is_eog(vocab, token):
                        finish = "stop"
                        break
                    generated += 1
                    text = matcher.feed(decoder.decode(llm.detokenize([token])))
                    if text:
                        emit("text", text)
                    if matcher.stopped:
                        finish = "stop"
                        break
                    if generated >= limit:
                        break
                    llm.eval([token])
                else:
                    finish = "cancelled"
            finally:
                sampler.close()
            self.last_stats = GenerationStats(
                prompt_tokens=len(tokens),
                output_tokens=generated,
                prompt_seconds=prompt_done - started,
                generation_seconds=time.perf_counter() - prompt_done,
                grammar=grammar is not None,
                resampled=sampler.resampled,
            )
            rest = matcher.feed(decoder.decode(b"", final=True)) + matcher.flush()
            if rest:
                emit("text", rest)
            usage = Usage(input_tokens=len(tokens), output_tokens=generated)
            emit("done", ModelChunk("", usage=usage, finish_reason=finish))
