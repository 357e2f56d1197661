"""A griffe extension for the API pages: reST roles in docstrings become Markdown code spans.

gent's docstrings are Google style, with Sphinx cross-reference roles here and there
(``:class:`~gent_core.tools.Tool```); mkdocstrings reads Markdown, where a role would show up
as literal text. This extension rewrites each role as a code span of the name it shows
(``Tool``), with the same rules as the pages ``tools/gen_reference.py`` writes.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import griffe

sys.path.insert(0, str(Path(__file__).resolve().parent))

from docstring_md import rest_roles_markdown

__all__ = ["ReSTRoles"]


class ReSTRoles(griffe.Extension):
    """Rewrite reST cross-reference roles in every docstring as code spans."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Called by griffe for each object it loads."""
        if obj.docstring is not None:
            obj.docstring.value = rest_roles_markdown(obj.docstring.value)
