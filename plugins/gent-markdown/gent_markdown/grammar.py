"""Grammar rules of the ``markdown`` format (for back ends that constrain output with GBNF)."""

from __future__ import annotations

from gent_core.grammar import GrammarBuilder

__all__ = ["markdown_text"]


def markdown_text(builder: GrammarBuilder) -> str:
    """Add the free-text rule of the Markdown format and return its name.

    No line may read as a header or a code fence: its first visible character (after at most
    eight spaces or tabs) is not ``#``, a backtick or ``~``; the first line is not empty.
    """
    line = builder.add("md-line", r"[ \t]{0,8} [^#`~ \t\n] [^\n]*")
    return builder.add("md-text", f'{line} ("\\n" {line}?)*')
