"""Token sampling with an optional grammar, checked lazily (llama.cpp's "grammar last").

Applying a grammar to every candidate costs a walk of each of the vocabulary's tokens (262k
for Gemma 3) through the grammar at every step. Most steps do not need it: the token the
unconstrained chain picks is usually allowed. So each step samples without the grammar, asks
the grammar about that one token, and only when it is refused samples again with the grammar
applied to every candidate. The result always satisfies the grammar.

This module talks to llama.cpp through llama-cpp-python's low-level bindings and is imported
only by the llama-cpp-python engine (:mod:`gent_llamacpp.engine_llama_cpp_python`); with
xllamacpp, llama.cpp's own ``common_sampler`` does the same.
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Sequence
from typing import Any

from gent_core.errors import ModelError

__all__ = ["TokenSampler", "prepare_prompt"]


class TokenSampler:
    """Samples the next token of a loaded ``llama_cpp.Llama``, within an optional grammar.

    Args:
        llm: The loaded model.
        temperature: ``0`` samples greedily.
        top_k: Top-k filtering.
        top_p: Nucleus filtering.
        min_p: Min-p filtering (``0``: off).
        seed: Sampling seed.
        grammar: A GBNF grammar (``root`` rule) every output must match, or ``None``.
        repeat_penalty: Penalty for repeated tokens (1.0 = none).

    Raises:
        ModelError: When llama.cpp rejects the grammar.
    """

    def __init__(
        self,
        llm: Any,
        *,
        temperature: float,
        top_k: int,
        top_p: float,
        seed: int,
        grammar: str | None = None,
        repeat_penalty: float = 1.0,
        min_p: float = 0.05,
    ) -> None:
        import llama_cpp

        self._lib: Any = llama_cpp
        self._ctx = llm._ctx.ctx
        self._vocab = llm._model.vocab
        self._n_vocab = llm.n_vocab()
        self._settings = (temperature, top_k, top_p, min_p, seed, repeat_penalty)
        self._samplers: list[Any] = []
        self.resampled = 0
        """How many tokens the unconstrained chain picked that the grammar refused."""
        self._plain = self._chain(None)
        self._check: Any = None
        self._full: Any = None
        if grammar is not None:
            self._check = self._grammar(grammar)
            self._samplers.append(self._check)
            self._full = self._chain(grammar)
        self._one = (llama_cpp.llama_token_data * 1)()
        self._array = llama_cpp.llama_token_data_array(
            data=ctypes.cast(self._one, llama_cpp.llama_token_data_p),
            size=1,
            selected=-1,
            sorted=False,
        )

    def _grammar(self, grammar: str) -> Any:
        sampler = self._lib.llama_sampler_init_grammar(
            self._vocab, grammar.encode("utf-8"), b"root"
        )
        if not sampler:
            raise ModelError("llama.cpp rejected the grammar")
        return sampler

    def _chain(self, grammar: str | None) -> Any:
        lib = self._lib
        temperature, top_k, top_p, min_p, seed, repeat_penalty = self._settings
        chain = lib.llama_sampler_chain_init(lib.llama_sampler_chain_default_params())
        self._samplers.append(chain)
        if repeat_penalty != 1.0:
            penalties = lib.llama_sampler_init_penalties(
                self._n_vocab, 64, repeat_penalty, 0.0, 0.0
            )
            lib.llama_sampler_chain_add(chain, penalties)
        if grammar is not None:
            lib.llama_sampler_chain_add(chain, self._grammar(grammar))
        if temperature <= 0:
            lib.llama_sampler_chain_add(chain, lib.llama_sampler_init_greedy())
            return chain
        if top_k > 0:
            lib.llama_sampler_chain_add(chain, lib.llama_sampler_init_top_k(top_k))
        if top_p < 1.0:
            lib.llama_sampler_chain_add(chain, lib.llama_sampler_init_top_p(top_p, 1))
        if min_p > 0.0:
            lib.llama_sampler_chain_add(chain, lib.llama_sampler_init_min_p(min_p, 1))
        lib.llama_sampler_chain_add(chain, lib.llama_sampler_init_temp(temperature))
        lib.llama_sampler_chain_add(chain, lib.llama_sampler_init_dist(seed))
        return chain

    def _allowed(self, token: int) -> bool:
        cell: Any = self._one[0]
        cell.id, cell.logit, cell.p = token, 0.0, 0.0
        self._array.size, self._array.selected, self._array.sorted = 1, -1, False
        self._lib.llama_sampler_apply(self._check, ctypes.byref(self._array))
        return not math.isinf(cell.logit)

    def sample(self) -> int:
        """Sample the next token from the logits of the last evaluated token."""
        lib = self._lib
        token = int(lib.llama_sampler_sample(self._plain, self._ctx, -1))
        if self._check is None:
            return token
        if self._allowed(token):
            lib.llama_sampler_accept(self._full, token)
        else:
            self.resampled += 1
            token = int(lib.llama_sampler_sample(self._full, self._ctx, -1))
        lib.llama_sampler_accept(self._check, token)
        return token

    def close(self) -> None:
        """Free the samplers (a chain frees the samplers added to it)."""
        for sampler in self._samplers:
            self._lib.llama_sampler_free(sampler)
        self._samplers = []


def prepare_prompt(llm: Any, tokens: Sequence[int]) -> list[int]:
    """Keep the part of ``llm``'s cache that starts ``tokens``; return the tokens left to
    evaluate (at least one, so fresh logits are computed).
    """
    cached = llm.n_tokens
    if cached > 0:
        prefix = 0
        for old, new in zip(llm.input_ids[:cached], tokens, strict=False):
            if int(old) != new:
                break
            prefix += 1
        prefix = min(prefix, len(tokens) - 1)
        if prefix > 0 and llm._ctx.kv_cache_seq_rm(-1, prefix, -1):
            llm.n_tokens = prefix
            return list(tokens[prefix:])
    llm.reset()
    return list(tokens)
