"""gent-markdown: the ``markdown`` text format (``# Thinking`` header sections) for gent.

See :mod:`gent_markdown.format` for the parsing, escaping and streaming rules. The names below
load on first use, so loading the plugin (``gent --help`` does) imports no format code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core import export_names, load_export

if TYPE_CHECKING:
    from gent_markdown.format import MarkdownFormat
    from gent_markdown.lines import MAX_LINE_LENGTH
    from gent_markdown.scanner import MarkdownScanner

__all__ = ["MAX_LINE_LENGTH", "MarkdownFormat", "MarkdownScanner"]
__version__ = "0.1.0"

_EXPORTS = {
    "MarkdownFormat": "gent_markdown.format",
    "MAX_LINE_LENGTH": "gent_markdown.lines",
    "MarkdownScanner": "gent_markdown.scanner",
}


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())
