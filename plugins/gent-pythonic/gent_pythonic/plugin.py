"""Registration hooks of gent-pythonic. Keep this module light: no heavy imports here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from gent_core import hookimpl

if TYPE_CHECKING:  # annotations only: loading the plugin stays light
    from gent_core import ToolChain


@hookimpl
def gent_register_toolchains() -> Mapping[str, Callable[..., ToolChain]]:
    """Supply the ``pythonic`` tool chain (calls such as ``calculator(expression="6 * 7")``)."""
    from gent_pythonic.chain import PythonicToolChain

    return {"pythonic": PythonicToolChain}
