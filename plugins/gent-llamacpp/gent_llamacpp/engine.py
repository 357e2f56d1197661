"""The engine contract: what :class:`~gent_llamacpp.model.LlamaCppModel` needs from a llama.cpp
binding, and the choice of binding.

Two bindings implement it:

* ``xllamacpp`` (:mod:`gent_llamacpp.engine_xllamacpp`, the default): prebuilt wheels of a
  recent llama.cpp for Linux (x86_64, aarch64), Windows and macOS (arm64), so installing needs
  no compiler. It drives llama.cpp's own server loop in-process, whose sampler checks the
  grammar lazily (llama.cpp's ``common_sampler``).
* ``llama-cpp-python`` (:mod:`gent_llamacpp.engine_llama_cpp_python`, the
  ``gent-llamacpp[llama-cpp-python]`` extra): compiled from source on most machines; gent drives
  llama.cpp's C API itself, token by token, with its lazily checked grammar
  (:mod:`gent_llamacpp.sampling`).

The model owns everything else once: the prompt, stop sequences (:class:`StopMatcher` over the
pieces an engine reports), the worker thread, the statistics.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

from gent_core.errors import ModelError

__all__ = [
    "BINDINGS",
    "Binding",
    "Engine",
    "EngineResult",
    "Sampling",
    "open_engine",
    "resolve_binding",
]

Binding = Literal["xllamacpp", "llama-cpp-python"]
BINDINGS: dict[Binding, str] = {"xllamacpp": "xllamacpp", "llama-cpp-python": "llama_cpp"}
"""Each binding and the module it imports, in the order ``binding: auto`` tries them."""

PROMPT_BATCH = 64
"""Prompt tokens evaluated between two cancellation checks: a small batch keeps Ctrl-C
prompt during a long prompt (a few hundredths of a second per batch on an idle machine)."""


@dataclass(frozen=True)
class Sampling:
    """How the next token is chosen (the model's options, resolved for one request)."""

    temperature: float
    top_k: int
    top_p: float
    min_p: float
    repeat_penalty: float
    seed: int | None


@dataclass(frozen=True)
class EngineResult:
    """How one generation ended.

    Attributes:
        prompt_tokens: Tokens in the prompt.
        output_tokens: Tokens generated.
        prompt_seconds: Time to evaluate the (uncached part of the) prompt.
        generation_seconds: Time from the first sampled token to the end.
        finish: ``"stop"`` (end of text or a stop sequence), ``"length"`` or ``"cancelled"``.
        resampled: Tokens the grammar refused and that were sampled again under it, when the
            binding reports it (``None`` otherwise).
    """

    prompt_tokens: int
    output_tokens: int
    prompt_seconds: float
    generation_seconds: float
    finish: str
    resampled: int | None = None


class Engine(Protocol):
    """A loaded GGUF model behind one binding. Calls come from one thread at a time."""

    binding: Binding

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
        """Generate from ``prompt``, reporting text pieces to ``on_text`` as they come.

        ``on_text`` returns true when a stop sequence ended the output (generation ends
        there); ``cancelled`` is polled between tokens and between prompt batches.

        Raises:
            ModelError: When the prompt does not fit the context window, or the binding fails.
            GrammarRejected: When llama.cpp cannot parse ``grammar`` (nothing was generated).
        """
        ...

    def accepts_grammar(self, text: str) -> bool | None:
        """Whether llama.cpp's parser accepts ``text`` (``None``: only known once used)."""
        ...

    def close(self) -> None:
        """Release the model."""
        ...


class GrammarRejected(ModelError):
    """llama.cpp could not parse the grammar of a request."""


def context_error(prompt_tokens: int, n_ctx: int) -> ModelError:
    """The error for a prompt that does not fit the context window (one wording for every
    binding).
    """
    return ModelError(
        f"the prompt has {prompt_tokens} tokens; the context window (n_ctx) is {n_ctx}",
        hint="Raise the 'n_ctx' option or shorten the conversation.",
    )


def _installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def resolve_binding(choice: str) -> Binding:
    """The binding to use for the ``binding`` option ``choice`` (``auto``: the first one
    installed, xllamacpp first).

    Raises:
        ModelError: When the chosen binding (or, for ``auto``, every binding) is missing.
    """
    install = (
        "Install the prebuilt one with 'pip install xllamacpp', or llama-cpp-python "
        "(compiled from source) with 'pip install gent-llamacpp[llama-cpp-python]' and the "
        "option 'binding: llama-cpp-python'."
    )
    if choice == "auto":
        for binding, module in BINDINGS.items():
            if _installed(module):
                return binding
        raise ModelError(
            "no llama.cpp binding is installed (xllamacpp or llama-cpp-python)", hint=install
        )
    binding = next(name for name in BINDINGS if name == choice)
    if not _installed(BINDINGS[binding]):
        raise ModelError(f"the llama.cpp binding {binding!r} is not installed", hint=install)
    return binding


def open_engine(binding: Binding, path: str, options: EngineOptions) -> Engine:
    """Load the model file ``path`` with ``binding``.

    Raises:
        ModelError: When the model cannot be loaded.
    """
    if binding == "xllamacpp":
        from gent_llamacpp.engine_xllamacpp import XllamacppEngine

        return XllamacppEngine(path, options)
    from gent_llamacpp.engine_llama_cpp_python import LlamaCppPythonEngine

    return LlamaCppPythonEngine(path, options)


@dataclass(frozen=True)
class EngineOptions:
    """What loading needs (from :class:`~gent_llamacpp.options.LlamaCppOptions`).

    ``n_threads`` runs generation (one token at a time), ``n_threads_batch`` the prompt's
    batches (:mod:`gent_llamacpp.threads` chooses both when the options leave them unset).
    """

    n_ctx: int
    n_threads: int
    n_threads_batch: int
    seed: int | None
    verbose: bool
    poll: int | None = None
    """How long llama.cpp's own idle threads busy-wait for work, 0 to 100 (xllamacpp;
    ``None``: llama.cpp's default, 50). Builds that use OpenMP, as xllamacpp's and
    llama-cpp-python's Linux builds do, ignore it: only the benchmark sets it, as a control."""
