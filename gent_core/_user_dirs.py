r"""gent's directories in the user's home, by the platform's convention: one rule for the data
directory (the history database) and the cache directory (plugin discovery).

* Linux and other Unixes: ``$XDG_DATA_HOME/gent`` (default ``~/.local/share/gent``) and
  ``$XDG_CACHE_HOME/gent`` (default ``~/.cache/gent``);
* macOS: ``~/Library/Application Support/gent`` and ``~/Library/Caches/gent``;
* Windows: ``%LOCALAPPDATA%\gent`` and ``%LOCALAPPDATA%\gent\Cache``.

Only :mod:`os` and :mod:`sys`: the command line asks for the cache directory at every start.
"""

from __future__ import annotations

import os
import sys
from typing import Literal

__all__ = ["user_dir"]


def user_dir(kind: Literal["data", "cache"]) -> str:
    """The directory of gent's ``kind`` files for this user (not created here)."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~\\AppData\\Local")
        gent = os.path.join(base, "gent")
        return gent if kind == "data" else os.path.join(gent, "Cache")
    if sys.platform == "darwin":
        folder = "Application Support" if kind == "data" else "Caches"
        return os.path.join(os.path.expanduser("~/Library"), folder, "gent")
    if kind == "data":
        base = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "gent")
