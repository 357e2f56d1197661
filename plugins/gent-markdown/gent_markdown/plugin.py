"""The ``markdown`` plugin: registers :class:`gent_markdown.MarkdownFormat` as ``markdown``."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from gent_core.formats import TextFormat
from gent_core.hookspecs import hookimpl


@hookimpl
def gent_register_formats() -> Mapping[str, Callable[..., TextFormat]]:
    """Supply the ``markdown`` format."""
    from gent_markdown.format import MarkdownFormat

    return {"markdown": MarkdownFormat}
