"""Registration hooks of gent-natural. Keep this module light: no heavy imports here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from gent_core import Command
from gent_core.hookspecs import hookimpl

if TYPE_CHECKING:  # annotations only: loading the plugin stays light
    from gent_core.toolchain import ToolChain


@hookimpl
def gent_register_toolchains() -> Mapping[str, Callable[..., ToolChain]]:
    """Supply the ``natural`` tool chain (``<tool_call name="X">{json}</tool_call>`` tags)."""
    from gent_natural.chain import NaturalToolChain

    return {"natural": NaturalToolChain}


@hookimpl
def gent_register_middleware() -> Mapping[str, Callable[..., object]]:
    """Supply the ``natural`` middleware (native tool turns written as text)."""
    from gent_natural.middleware import NaturalMiddleware

    return {"natural": NaturalMiddleware}


@hookimpl
def gent_register_commands() -> Mapping[str, Command]:
    """Supply ``gent convert``."""
    return {
        "convert": Command(
            "gent_natural.cli",
            "convert conversations between native tool calls and text (natural tool use)",
        )
    }
