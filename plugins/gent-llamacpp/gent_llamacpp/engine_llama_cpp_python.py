"""The ``llama-cpp-python`` engine: gent drives llama.cpp's C API token by token.

Selected with the option ``binding: llama-cpp-python`` (install ``gent-llamacpp[llama-cpp-python]``,
which compiles llama.cpp on most machines). The prompt is evaluated in batches of
:data:`~gent_llamacpp.engine.PROMPT_BATCH` tokens, and llama.cpp's abort callback is set for the
whole generation, so a cancellation stops even a batch in progress; between tokens the flag is
checked too. Tokens are sampled by :class:`~gent_llamacpp.sampling.TokenSampler` (grammar
checked lazily).

Grammar safety: a grammar llama.cpp cannot parse makes its sampler constructor return NULL,
which llama-cpp-python would add to the sampler chain and crash on, so every grammar is first
parsed on its own (:meth:`LlamaCppPythonEngine.accepts_grammar`).
"""

from __future__ import annotations

import codecs
import time
from collections.abc import Callable
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

__all__ = ["LlamaCppPythonEngine"]


class LlamaCppPythonEngine:
    """A GGUF model loaded with llama-cpp-python.

    Raises:
        ModelError: When the model cannot be loaded.
    """

    binding: Binding = "llama-cpp-python"

    def __init__(self, path: str, options: EngineOptions) -> None:
        import llama_cpp
        from llama_cpp._utils import suppress_stdout_stderr

        self._lib: Any = llama_cpp
        self._n_ctx = options.n_ctx
        self._grammar_ok: dict[str, bool] = {}
        self._should_abort: Callable[[], bool] = _never
        try:
            # llama.cpp prints some notices straight to the process's stderr whatever
            # `verbose` says; they would break into the live view, so silence the load.
            with suppress_stdout_stderr(disable=options.verbose):
                self._llm: Any = llama_cpp.Llama(
                    model_path=path,
                    n_ctx=options.n_ctx,
                    n_batch=PROMPT_BATCH,
                    n_threads=options.n_threads,
                    n_threads_batch=options.n_threads_batch,
                    seed=(
                        options.seed if options.seed is not None else llama_cpp.LLAMA_DEFAULT_SEED
                    ),
                    verbose=options.verbose,
                )
        except (ValueError, RuntimeError) as error:
            raise ModelError(f"cannot load model {path}: {error}") from error
        # Called by llama.cpp between the operations of a batch: a cancellation stops the
        # batch in progress (llama_decode then returns 2, "aborted").
        self._abort_callback = llama_cpp.ggml_abort_callback(lambda _data: self._should_abort())
        llama_cpp.llama_set_abort_callback(self._llm._ctx.ctx, self._abort_callback, None)

    def accepts_grammar(self, text: str) -> bool:
        """Whether llama.cpp's parser accepts ``text`` (a NULL sampler means no)."""
        if text not in self._grammar_ok:
            lib = self._lib
            sampler = lib.llama_sampler_init_grammar(
                self._llm._model.vocab, text.encode("utf-8"), b"root"
            )
            if sampler:
                lib.llama_sampler_free(sampler)
            self._grammar_ok[text] = bool(sampler)
        return self._grammar_ok[text]

    def _evaluate(self, tokens: list[int], cancelled: Callable[[], bool]) -> bool:
        """Evaluate ``tokens`` batch by batch; false when cancelled before the end."""
        for start in range(0, len(tokens), PROMPT_BATCH):
            if cancelled():
                return False
            if not self._eval(tokens[start : start + PROMPT_BATCH], cancelled):
                return False
        return True

    def _eval(self, tokens: list[int], cancelled: Callable[[], bool]) -> bool:
        try:
            self._llm.eval(tokens)
        except RuntimeError:
            if cancelled():  # aborted by the callback; what it evaluated is dropped
                return False
            raise
        return True

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
        """See :meth:`gent_llamacpp.engine.Engine.generate` (``stops`` are matched by the
        caller, through ``on_text``).
        """
        from gent_llamacpp.sampling import TokenSampler, prepare_prompt

        lib, llm = self._lib, self._llm
        tokens = llm.tokenize(prompt.encode("utf-8"), add_bos=True, special=False)
        room = self._n_ctx - len(tokens)
        if room <= 0:
            raise context_error(len(tokens), self._n_ctx)
        if grammar is not None and not self.accepts_grammar(grammar):
            raise GrammarRejected("llama.cpp rejected the grammar")
        sampler = TokenSampler(
            llm,
            temperature=sampling.temperature,
            top_k=sampling.top_k,
            top_p=sampling.top_p,
            min_p=sampling.min_p,
            seed=sampling.seed if sampling.seed is not None else lib.LLAMA_DEFAULT_SEED,
            grammar=grammar,
            repeat_penalty=sampling.repeat_penalty,
        )
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        started = time.perf_counter()
        prompt_done = started
        generated, finish = 0, "cancelled"
        self._should_abort = cancelled
        try:
            if self._evaluate(prepare_prompt(llm, tokens), cancelled):
                prompt_done = time.perf_counter()
                generated, finish = self._sample_tokens(
                    sampler, decoder, min(max_tokens, room), on_text, cancelled
                )
        finally:
            self._should_abort = _never
            sampler.close()
        if finish != "cancelled":
            on_text(decoder.decode(b"", final=True))
        return EngineResult(
            prompt_tokens=len(tokens),
            output_tokens=generated,
            prompt_seconds=prompt_done - started,
            generation_seconds=time.perf_counter() - prompt_done,
            finish=finish,
            resampled=sampler.resampled,
        )

    def _sample_tokens(
        self,
        sampler: Any,
        decoder: codecs.IncrementalDecoder,
        limit: int,
        on_text: Callable[[str], bool],
        cancelled: Callable[[], bool],
    ) -> tuple[int, str]:
        """Sample and evaluate tokens after the prompt until the end of generation, a stop
        (``on_text`` says so), ``limit`` tokens or the cancellation; the number generated
        and the finish reason (``stop``, ``length`` or ``cancelled``).
        """
        lib, llm = self._lib, self._llm
        vocab = llm._model.vocab
        generated = 0
        while True:
            if cancelled():
                return generated, "cancelled"
            token = sampler.sample()
            if lib.llama_vocab_is_eog(vocab, token):
                return generated, "stop"
            generated += 1
            if on_text(decoder.decode(llm.detokenize([token]))):
                return generated, "stop"
            if generated >= limit:
                return generated, "length"
            if not self._eval([token], cancelled):
                return generated, "cancelled"

    def close(self) -> None:
        """Free the model."""
        llm, self._llm = self._llm, None
        close = getattr(llm, "close", None)
        if callable(close):
            close()


def _never() -> bool:
    return False
