r"""A cache of what plugin discovery found, so that ``gent --help`` and ``gent plugins`` need
not import :mod:`importlib.metadata` and every plugin on each start.

A value is remembered under a *topic* (``"commands"``, ``"plugins"``) in one file per
environment, together with a fingerprint of everything its answer was computed from:

* the key: the interpreter (``sys.executable`` and its version), ``sys.path`` and every
  ``GENT_*`` environment variable but ``GENT_NO_CACHE`` (``GENT_PLUGINS`` and its kin
  change the answer);
* the modification time and size of each ``sys.path`` directory (installing, upgrading or
  uninstalling a distribution adds or removes a ``*.dist-info`` directory there, and an
  editable install adds a ``.pth`` file), of every ``entry_points.txt``, ``METADATA`` and
  ``.pth`` file in those directories, and of the source of every module loaded when the
  value was computed (editing a plugin of an editable install changes its file).

:func:`recall` returns the value only when the key and every one of those files are as
recorded, else ``None`` and the caller computes the answer again. :func:`remember` writes
nothing when a recorded file changed less than :data:`SETTLE_SECONDS` before the
computation began (a file system's clock is coarse: a change in the same tick would not
show), so a value is never stored for a state that was changing while it was computed.

The cache lives in the user cache directory (``$XDG_CACHE_HOME/gent``, by default
``~/.cache/gent``; ``~/Library/Caches/gent`` on macOS; ``%LOCALAPPDATA%\gent\Cache`` on
Windows), one file per topic and key; writing one removes the files of its topic not
written for :data:`PRUNE_DAYS` days. ``GENT_NO_CACHE=1`` turns it off. A missing, corrupt,
unreadable or unwritable cache is ignored: it is an optimisation, never a source of errors.

Nothing here imports more than :mod:`os`, :mod:`sys`, :mod:`json`, :mod:`time` and
:mod:`zlib`: reading the cache must stay cheaper than what it saves.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
import zlib
from typing import Any

__all__ = ["SETTLE_SECONDS", "cache_dir", "enabled", "recall", "remember", "started"]

FORMAT = 1
"""The version of the file layout (a file of another version is ignored)."""

SETTLE_SECONDS = 2.0
"""How long before a computation a recorded file must have stopped changing."""

PRUNE_DAYS = 30
"""A cache file not written for this many days is removed when another is written."""

_DIST_INFO_FILES = ("entry_points.txt", "METADATA")
_EGG_INFO_FILES = ("entry_points.txt", "PKG-INFO")

_Stamp = tuple[str, int, int] | tuple[str, None, None]


def enabled() -> bool:
    """Whether the cache is used (``GENT_NO_CACHE`` is not set to a true value)."""
    return os.environ.get("GENT_NO_CACHE", "").strip().lower() not in {"1", "true", "yes", "on"}


def cache_dir() -> str:
    """The directory of gent's cache files (not created here)."""
    from gent_core._user_dirs import user_dir

    return user_dir("cache")


def started() -> int:
    """The moment a computation begins (give it to :func:`remember`)."""
    return time.time_ns()


def _key(topic: str) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "topic": topic,
        "python": sys.executable,
        "version": sys.version,
        "path": _path_entries(),  # absolute: "" (python -c) is the working directory
        "environment": sorted(
            [name, value]
            for name, value in os.environ.items()
            if name.startswith("GENT_") and name != "GENT_NO_CACHE"
        ),
    }


def _file_for(key: dict[str, Any]) -> str:
    digest = zlib.crc32(json.dumps(key, sort_keys=True).encode("utf-8", "surrogatepass"))
    return os.path.join(cache_dir(), f"{key['topic']}-{digest:08x}.json")


def _stamp(path: str) -> _Stamp:
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return (path, None, None)
    return (path, status.st_mtime_ns, status.st_size)


def _path_entries() -> list[str]:
    return [os.path.abspath(entry or os.curdir) for entry in sys.path if isinstance(entry, str)]


def _installed_files(directory: str) -> list[str]:
    """The files of ``directory`` that say what is installed there: each distribution's
    entry points and metadata, and the ``.pth`` files.
    """
    found: list[str] = []
    try:
        with os.scandir(directory) as entries:
            for entry in entries:
                if entry.name.endswith(".dist-info"):
                    found += [os.path.join(entry.path, name) for name in _DIST_INFO_FILES]
                elif entry.name.endswith(".egg-info"):
                    found += [os.path.join(entry.path, name) for name in _EGG_INFO_FILES]
                elif entry.name.endswith(".pth"):
                    found.append(entry.path)
    except OSError:  # not a directory (a zip file), gone, or unreadable: its stamp says so
        pass
    return found


def _module_files() -> list[str]:
    """The source files of the loaded modules, except the standard library's (its changes
    come with a new interpreter version, which is part of the key).
    """
    stdlib = os.path.dirname(os.__file__) + os.sep
    found = []
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if not isinstance(path, str):
            continue
        if path.startswith(stdlib) and "-packages" not in path[len(stdlib) :]:
            continue
        found.append(path)
    return found


def _fingerprint() -> list[_Stamp]:
    directories = _path_entries()
    paths = [*directories]
    for directory in directories:
        paths += _installed_files(directory)
    paths += _module_files()
    return [_stamp(path) for path in dict.fromkeys(paths)]


def recall(topic: str) -> Any | None:
    """The value remembered for ``topic`` when everything it was computed from is unchanged;
    ``None`` when there is none, it is stale, unreadable or corrupt, or the cache is off.
    """
    if not enabled():
        return None
    try:
        key = _key(topic)
        with open(_file_for(key), encoding="utf-8") as stream:
            stored = json.load(stream)
        if not isinstance(stored, dict) or stored.get("key") != key:
            return None
        stamps = stored["files"]
        if not isinstance(stamps, list) or not stamps:
            return None
        for stamp in stamps:
            path, mtime, size = stamp
            if not isinstance(path, str) or _stamp(path) != (path, mtime, size):
                return None
        return stored["value"]
    except Exception:  # noqa: BLE001 - a cache that cannot be read is no cache
        return None


def remember(topic: str, value: Any, since: int) -> None:
    """Store ``value`` (JSON-ready) for ``topic``, computed in a computation that began at
    ``since`` (:func:`started`); silently nothing when the cache is off, cannot be written,
    or a recorded file changed too recently for its time stamp to prove it unchanged.
    """
    if not enabled():
        return
    partial = ""
    try:
        stamps = _fingerprint()
        settled = since - int(SETTLE_SECONDS * 1e9)
        if any(mtime is not None and mtime >= settled for _, mtime, _ in stamps):
            return
        key = _key(topic)
        target = _file_for(key)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        partial = f"{target}.{os.getpid()}.tmp"
        with open(partial, "w", encoding="utf-8") as stream:
            json.dump({"key": key, "files": stamps, "value": value}, stream)
        os.replace(partial, target)
        _prune(topic, keep=target)
    except Exception:  # noqa: BLE001 - an unwritable cache (read-only home) is no cache
        if partial:
            with contextlib.suppress(OSError):
                os.unlink(partial)


def _prune(topic: str, keep: str) -> None:
    """Remove the files of ``topic`` not written for :data:`PRUNE_DAYS` days (those of
    environments gone, or of working directories ``python -m gent_core`` ran in once).
    """
    oldest = time.time() - PRUNE_DAYS * 86400
    with os.scandir(os.path.dirname(keep)) as entries:
        for entry in entries:
            name = entry.name
            if (
                entry.path != keep
                and name.startswith(f"{topic}-")
                and name.endswith((".json", ".tmp"))
                and entry.is_file(follow_symlinks=False)
                and entry.stat(follow_symlinks=False).st_mtime < oldest
            ):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
