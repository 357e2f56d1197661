"""The :func:`os.open` flags of confined file access (:mod:`gent_core._workspace`, the file
tools' writes), and whether ``dir_fd`` walks are possible.

Flags a platform lacks are 0 (Windows has no ``O_NOFOLLOW``, POSIX no ``O_BINARY``).
"""

from __future__ import annotations

import errno
import os

__all__ = [
    "BINARY",
    "CLOEXEC",
    "DIR_FLAGS",
    "LINK_ERRNOS",
    "NOFOLLOW",
    "NONBLOCK",
    "READ_FLAGS",
    "USE_DIR_FD",
]

NOFOLLOW: int = getattr(os, "O_NOFOLLOW", 0)
"""Fail instead of following a symbolic link as the last component."""
NONBLOCK: int = getattr(os, "O_NONBLOCK", 0)
"""Never block in ``open`` (a FIFO without a writer would block forever)."""
CLOEXEC: int = getattr(os, "O_CLOEXEC", 0)
"""Close the descriptor in child processes (a tool's subprocess never inherits it)."""
BINARY: int = getattr(os, "O_BINARY", 0)
"""Read and write bytes as they are (Windows would translate line ends otherwise)."""
_DIRECTORY: int = getattr(os, "O_DIRECTORY", 0)
_NOCTTY: int = getattr(os, "O_NOCTTY", 0)

USE_DIR_FD: bool = (
    bool(NOFOLLOW and _DIRECTORY)
    and os.open in os.supports_dir_fd
    and os.mkdir in os.supports_dir_fd
    and os.rename in os.supports_dir_fd
    and os.stat in os.supports_dir_fd
    and os.scandir in os.supports_fd
)
"""Whether paths are opened one component at a time relative to the parent's descriptor."""

LINK_ERRNOS = frozenset({errno.ELOOP, errno.EMLINK, errno.ENOTDIR})
"""What opening a resolved (link-free) path fails with when a component was swapped for a
link since: ELOOP (Linux) or EMLINK (FreeBSD) for ``O_NOFOLLOW``, ENOTDIR for a directory
that is now a link or a file."""

READ_FLAGS = os.O_RDONLY | NOFOLLOW | NONBLOCK | _NOCTTY | CLOEXEC | BINARY
"""Opening a file to read: no link, no blocking on a FIFO, never a controlling terminal."""
DIR_FLAGS = os.O_RDONLY | _DIRECTORY | NOFOLLOW | CLOEXEC
"""Opening a directory to walk through or list: no link."""
