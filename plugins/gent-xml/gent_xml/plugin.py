"""The ``xml`` plugin: registers :class:`gent_xml.XMLFormat` as the ``xml`` format."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from gent_core.formats import TextFormat
from gent_core.hookspecs import hookimpl


@hookimpl
def gent_register_formats() -> Mapping[str, Callable[..., TextFormat]]:
    """Supply the ``xml`` format."""
    from gent_xml.format import XMLFormat

    return {"xml": XMLFormat}
