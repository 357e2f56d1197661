"""The markdown format against the TextFormat contract, with the conformance kit."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from gent_markdown import MarkdownFormat

from gent_core.testing import FormatConformance


class TestMarkdownFormat(FormatConformance):
    """Round trips, streaming, linear time (with the Markdown-specific inputs below),
    documented errors only, the grammar and describe()."""

    adversarial_inputs: ClassVar[Mapping[str, str | tuple[str, str]]] = {
        "#\\n#\\n": "#\n",
        "# \\n# \\n": "# \n",
        "header prefixes": "# answe\n",
        "long would-be header lines": "# answer" + " " * 300 + "x\n",
        "nested fences": "```\n````\n~~~\n`````\n",
        "one unclosed fence": ("# action\n```\n", "# answer\n"),
        "fence-like lines": "   ``\n  ~~\n `x\n",
        "headers": "# answer\nx\n# thinking\ny\n",
        "one long line": "#" + "`" * 50,
    }

    def make_format(self) -> MarkdownFormat:
        return MarkdownFormat()


class TestMarkdownLevelTwo(FormatConformance):
    """The same contract at header level 2 (how nested sections are read back)."""

    def make_format(self) -> MarkdownFormat:
        return MarkdownFormat(level=2)
