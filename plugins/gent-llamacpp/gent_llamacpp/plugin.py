"""Registration hooks of gent-llamacpp. Keep this module light: llama_cpp loads in load()."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from gent_core import hookimpl

if TYPE_CHECKING:  # annotations only: loading the plugin stays light
    from gent_core import Model


@hookimpl
def gent_register_models() -> Mapping[str, Callable[..., Model]]:
    """Supply the ``llamacpp`` model."""
    from gent_llamacpp.model import LlamaCppModel

    return {"llamacpp": LlamaCppModel}
