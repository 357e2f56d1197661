"""Registration hooks of gent-openai. Keep this module light: httpx loads on first request."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from gent_core import Model, hookimpl


@hookimpl
def gent_register_models() -> Mapping[str, Callable[..., Model]]:
    """Supply the ``openai`` model."""
    from gent_openai.model import OpenAIModel

    return {"openai": OpenAIModel}
