r"""gent's directories in the user's home, by the platform's convention: one rule for the data
directory (gent-history's database) and the cache directory (plugin discovery).

* Linux and other Unixes: ``$XDG_DATA_HOME/gent`` (default ``~/.local/share/gent``) and
  ``$XDG_CACHE_HOME/gent`` (default ``~/.cache/gent``);
* macOS: ``~/Library/Application Support/gent`` and ``~/Library/Caches/gent``;
* Windows: ``%LOCALAPPDATA%\gent`` and ``%LOCALAPPDATA%\gent\Cache``.

:func:`trusted_dir` says whether such a directory may be used at all: it must be the user's
own, as pip requires of its cache (``sudo -E gent`` keeps the caller's ``HOME``, and a shared
``XDG_CACHE_HOME`` may be anyone's).

Only :mod:`os`, :mod:`stat` and :mod:`sys`: the command line asks for the cache directory at
every start.
"""

from __future__ import annotations

import os
import stat
import sys
from typing import Literal

__all__ = ["owned_by_user", "trusted_dir", "user_dir"]


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


def owned_by_user(status: os.stat_result) -> bool:
    """Whether a file or directory with this ``stat`` is the effective user's own and no
    other user may write it: not writable by others, nor by its group unless that is the
    user's own group (the private group of a ``umask 002`` system). Always true on Windows,
    which has no such bits to read.
    """
    geteuid = getattr(os, "geteuid", None)
    if geteuid is None:
        return True
    if status.st_uid != geteuid() or status.st_mode & stat.S_IWOTH:
        return False
    return not status.st_mode & stat.S_IWGRP or status.st_gid == os.getegid()


def trusted_dir(directory: str) -> bool:
    """Whether ``directory`` may hold files gent reads back: an existing directory, not a
    symbolic link, owned by the effective user and writable by no one else. Anything else
    (someone else's directory, a world-writable one, a link, a file) is not used.
    """
    try:
        status = os.lstat(directory)
    except (OSError, ValueError):
        return False
    return stat.S_ISDIR(status.st_mode) and owned_by_user(status)
