"""gent-markdown: the ``markdown`` text format (``# Thinking`` header sections) for gent.

See :mod:`gent_markdown.format` for the parsing, escaping and streaming rules.
"""

from __future__ import annotations

from gent_markdown.format import MarkdownFormat
from gent_markdown.lines import MAX_LINE_LENGTH
from gent_markdown.scanner import MarkdownScanner

__all__ = ["MAX_LINE_LENGTH", "MarkdownFormat", "MarkdownScanner"]
__version__ = "0.1.0"
