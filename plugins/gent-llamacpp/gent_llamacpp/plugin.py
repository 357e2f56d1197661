"""Registration hooks of gent-llamacpp. Keep this module light: llama_cpp loads in load()."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from gent_core import Model, hookimpl


@hookimpl
def gent_register_models() -> Mapping[str, Callable[..., Model]]:
    """Supply the ``llamacpp`` model."""
    from gent_llamacpp.model import LlamaCppModel

    return {"llamacpp": LlamaCppModel}
