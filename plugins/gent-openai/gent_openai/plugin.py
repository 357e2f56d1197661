"""Registration hooks of gent-openai. Keep this module light: httpx loads on first request."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from gent_core import hookimpl

if TYPE_CHECKING:  # annotations only: loading the plugin stays light
    from gent_core import Model


@hookimpl
def gent_register_models() -> Mapping[str, Callable[..., Model]]:
    """Supply the ``openai`` model."""
    from gent_openai.model import OpenAIModel

    return {"openai": OpenAIModel}
