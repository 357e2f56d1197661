"""gent-llamacpp: run a local GGUF model in-process (default: Gemma 3 270M) as the ``llamacpp``
model, with few-shot prompts and grammar-constrained output for base models.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["LlamaCppModel", "LlamaCppOptions", "model_file"]

if TYPE_CHECKING:
    from gent_llamacpp.bundled_model import model_file
    from gent_llamacpp.model import LlamaCppModel
    from gent_llamacpp.options import LlamaCppOptions


def __getattr__(name: str) -> Any:
    if name == "LlamaCppModel":
        from gent_llamacpp.model import LlamaCppModel

        return LlamaCppModel
    if name == "model_file":
        from gent_llamacpp.bundled_model import model_file

        return model_file
    if name == "LlamaCppOptions":
        from gent_llamacpp.options import LlamaCppOptions

        return LlamaCppOptions
    raise AttributeError(name)
