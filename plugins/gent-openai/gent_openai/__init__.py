"""gent-openai: the ``openai`` model, for any OpenAI-compatible server (chat or completions)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["OpenAIModel", "OpenAIOptions"]

if TYPE_CHECKING:
    from gent_openai.model import OpenAIModel
    from gent_openai.options import OpenAIOptions


def __getattr__(name: str) -> Any:
    if name == "OpenAIModel":
        from gent_openai.model import OpenAIModel

        return OpenAIModel
    if name == "OpenAIOptions":
        from gent_openai.options import OpenAIOptions

        return OpenAIOptions
    raise AttributeError(name)
