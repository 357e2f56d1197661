"""The ``xml`` plugin: registers :class:`gent_xml.XMLFormat` as the ``xml`` format."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from gent_core.hookspecs import hookimpl

if TYPE_CHECKING:  # annotations only: loading the plugin stays light
    from gent_core.formats import TextFormat


@hookimpl
def gent_register_formats() -> Mapping[str, Callable[..., TextFormat]]:
    """Supply the ``xml`` format."""
    from gent_xml.format import XMLFormat

    return {"xml": XMLFormat}
