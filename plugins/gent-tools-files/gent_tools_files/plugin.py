"""The ``files`` plugin: registers ``read_file``, ``list_dir``, ``search_text``, ``write_file``
and ``edit_file``.

The tools are registered as classes, so the agent config can set their options
(``{name: read_file, max_chars: 20000}``); ``write_file`` and ``edit_file`` are marked
``writes = True`` (the agent config must allow writing).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from gent_core.hookspecs import hookimpl

if TYPE_CHECKING:  # annotations only: loading the plugin stays light
    from gent_core.tools.base import Tool


@hookimpl
def gent_register_tools() -> Sequence[type[Tool]]:
    """Supply the file tool classes (created with the options of the agent config)."""
    from gent_tools_files.listing import ListDir
    from gent_tools_files.read import ReadFile
    from gent_tools_files.search import SearchText
    from gent_tools_files.write import EditFile, WriteFile

    return [ReadFile, ListDir, SearchText, WriteFile, EditFile]
