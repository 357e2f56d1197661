"""What is at a path that comes from outside (a command-line argument, a config key, a
suite's name), asked without a traceback: the one probe every such check uses.

``Path.exists()``, ``is_dir()`` and ``is_file()`` answer ``False`` for a path that is not
there, but re-raise other errors on Python 3.10-3.13: a name longer than the system allows
(``ENAMETOOLONG``), a directory on the way that cannot be searched (``EACCES``). A person's
300-character argument then printed a traceback. :func:`probe_path` answers every case:

* ``"file"``, ``"directory"`` or ``"other"`` (a FIFO, a socket, a device) for what is there,
  links followed;
* ``"missing"`` when nothing is there (``ENOENT``, or a file where a directory was named on
  the way: ``ENOTDIR``);
* ``"unknown"`` when the system would not say, with the reason in words (``"the name is too
  long"``, ``"permission denied"``, ``"a symbolic link loop"``, ``"the path contains a NUL
  byte"``): a caller either says so in a one-line error or treats the path as not what it
  wanted.

Only :mod:`os`, :mod:`errno` and :mod:`stat`: the command line probes arguments at start.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from typing import Literal

__all__ = ["PathKind", "PathProbe", "probe_path"]

PathKind = Literal["file", "directory", "other", "missing", "unknown"]
"""What :func:`probe_path` found."""

_REASONS = {
    errno.ENAMETOOLONG: "the name is too long",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ELOOP: "a symbolic link loop",
}


@dataclass(frozen=True)
class PathProbe:
    """What is at a path, as :func:`probe_path` found it.

    Attributes:
        kind: ``"file"``, ``"directory"``, ``"other"``, ``"missing"`` or ``"unknown"``.
        problem: For ``"unknown"``, why the system would not say, in words; else ``None``.
    """

    kind: PathKind
    problem: str | None = None

    @property
    def exists(self) -> bool:
        """Whether something is there (a file, a directory or another kind of file)."""
        return self.kind in ("file", "directory", "other")

    @property
    def is_file(self) -> bool:
        """Whether a regular file is there (links followed)."""
        return self.kind == "file"

    @property
    def is_dir(self) -> bool:
        """Whether a directory is there (links followed)."""
        return self.kind == "directory"

    @property
    def state(self) -> str:
        """The probe in words, after a path: ``"does not exist"``, ``"is a directory"``,
        ``"cannot be checked (the name is too long)"``.
        """
        if self.kind == "unknown":
            return f"cannot be checked ({self.problem})"
        return {
            "file": "is a file",
            "directory": "is a directory",
            "other": "is neither a file nor a directory",
            "missing": "does not exist",
        }[self.kind]


def probe_path(path: str | os.PathLike[str]) -> PathProbe:
    """What is at ``path`` (links followed); never raises.

    Args:
        path: The path, as given (relative paths are relative to the current directory).

    Returns:
        The :class:`PathProbe`: what is there, or why the system would not say.
    """
    try:
        status = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return PathProbe("missing")
    except OSError as error:
        reason = _REASONS.get(error.errno or 0) or (error.strerror or str(error)).lower()
        return PathProbe("unknown", reason)
    except ValueError as error:  # a NUL byte, a character the file system cannot encode
        if "null" in str(error):
            return PathProbe("unknown", "the path contains a NUL byte")
        return PathProbe("unknown", "the path cannot be encoded for the file system")
    if stat.S_ISREG(status.st_mode):
        return PathProbe("file")
    if stat.S_ISDIR(status.st_mode):
        return PathProbe("directory")
    return PathProbe("other")
