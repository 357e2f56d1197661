"""File tools for gent, confined to the agent's working directory.

``read_file``, ``list_dir`` and ``search_text`` read; ``write_file`` and ``edit_file`` write
(and are available only when the agent config allows writing). They are found through the
``gent`` entry point ``files``; they can also be imported and created with options
(``ReadFile(max_chars=20000)``). Imports are lazy so that loading the plugin stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core import load_export

__version__ = "0.1.0"

_EXPORTS = {
    "BinaryFileError": "gent_tools_files.errors",
    "EditFile": "gent_tools_files.write",
    "EditMatchError": "gent_tools_files.errors",
    "FileToolError": "gent_tools_files.errors",
    "ListDir": "gent_tools_files.listing",
    "PathRejectedError": "gent_tools_files.errors",
    "ReadFile": "gent_tools_files.read",
    "SearchText": "gent_tools_files.search",
    "Workspace": "gent_core.workspace",
    "WriteFile": "gent_tools_files.write",
}

if TYPE_CHECKING:
    from gent_core.workspace import Workspace
    from gent_tools_files.errors import (
        BinaryFileError,
        EditMatchError,
        FileToolError,
        PathRejectedError,
    )
    from gent_tools_files.listing import ListDir
    from gent_tools_files.read import ReadFile
    from gent_tools_files.search import SearchText
    from gent_tools_files.write import EditFile, WriteFile

__all__ = [
    "BinaryFileError",
    "EditFile",
    "EditMatchError",
    "FileToolError",
    "ListDir",
    "PathRejectedError",
    "ReadFile",
    "SearchText",
    "Workspace",
    "WriteFile",
    "__version__",
]


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)
