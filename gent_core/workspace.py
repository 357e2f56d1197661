"""The workspace: paths confined to the working directory, opened without following links.

:class:`Workspace` resolves a path a tool was given to a :class:`Target` inside the working
directory (or refuses it with :class:`PathRejectedError`, a :class:`FileToolError`); the
file tools and the clipboard use it, so confinement is one rule in one place. The open
flags (:data:`NOFOLLOW`, :data:`CLOEXEC`, :data:`DIR_FLAGS`, :data:`BINARY`,
:data:`USE_DIR_FD`) are what its openings use. :func:`probe_path` says what is at a path,
asked without a traceback.

A toolkit with a floor: it imports only the foundation (values and errors), never the
command line, the agent loop or the configuration. Names load lazily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core._lazy import export_names, load_export

_EXPORTS: dict[str, str] = {
    # confinement
    "MAX_SYMLINK_HOPS": "gent_core._workspace",
    "Target": "gent_core._workspace",
    "Workspace": "gent_core._workspace",
    "same_file": "gent_core._workspace",
    "RELATIVE_PATH_HINT": "gent_core._file_errors",
    "FileToolError": "gent_core._file_errors",
    "PathRejectedError": "gent_core._file_errors",
    # opening without following links
    "BINARY": "gent_core._open_flags",
    "CLOEXEC": "gent_core._open_flags",
    "DIR_FLAGS": "gent_core._open_flags",
    "NOFOLLOW": "gent_core._open_flags",
    "USE_DIR_FD": "gent_core._open_flags",
    # paths seen from outside
    "probe_path": "gent_core._path_probe",
}

if TYPE_CHECKING:
    from gent_core._file_errors import (
        RELATIVE_PATH_HINT,
        FileToolError,
        PathRejectedError,
    )
    from gent_core._open_flags import (
        BINARY,
        CLOEXEC,
        DIR_FLAGS,
        NOFOLLOW,
        USE_DIR_FD,
    )
    from gent_core._path_probe import (
        probe_path,
    )
    from gent_core._workspace import (
        MAX_SYMLINK_HOPS,
        Target,
        Workspace,
        same_file,
    )

__all__ = [
    "BINARY",
    "CLOEXEC",
    "DIR_FLAGS",
    "FileToolError",
    "MAX_SYMLINK_HOPS",
    "NOFOLLOW",
    "PathRejectedError",
    "RELATIVE_PATH_HINT",
    "Target",
    "USE_DIR_FD",
    "Workspace",
    "probe_path",
    "same_file",
]


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())
