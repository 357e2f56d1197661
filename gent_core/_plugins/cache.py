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

:func:`recall` returns the value only when the key is the same and the fingerprint computed
now is the one recorded: the installed state (the ``sys.path`` directories and their files)
is computed again and compared whole, never taken from the file, and every recorded module
source must be unchanged. Otherwise it returns ``None`` and the caller computes the answer
again. :func:`remember` writes nothing when a recorded file changed less than
:data:`SETTLE_SECONDS` before the computation began (a file system's clock is coarse: a
change in the same tick would not show), so a value is never stored for a state that was
changing while it was computed.

The cache lives in the user cache directory (``$XDG_CACHE_HOME/gent``, by default
``~/.cache/gent``; ``~/Library/Caches/gent`` on macOS; ``%LOCALAPPDATA%\gent\Cache`` on
Windows), one file per topic and key; writing one removes the files of its topic not
written for :data:`PRUNE_DAYS` days. ``GENT_NO_CACHE=1`` turns it off. A missing, corrupt,
unreadable or unwritable cache is ignored: it is an optimisation, never a source of errors.

Nor is it a source of imports or of trust. The directory is used only when it is the user's
own (:func:`~gent_core._user_dirs.trusted_dir`: owned by the effective user, writable by no
one else, not a link); a file is read only when it is a regular file of that user, not
reached through a link, of at most :data:`MAX_FILE_SIZE` bytes, opened without blocking (a
FIFO); a file is written as a new file (``tempfile.mkstemp``: ``O_EXCL``, never through a
planted link) and renamed into place. A remembered value can only save work: a caller that
would import a module it names first checks, with :func:`declares`, that the installed entry
points (:func:`declared_plugins`) declare that plugin and package.

Reading imports nothing more than :mod:`os`, :mod:`stat`, :mod:`sys`, :mod:`json`,
:mod:`time` and :mod:`zlib`: reading the cache must stay cheaper than what it saves.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
import time
import zlib
from collections.abc import Mapping
from typing import Any

from gent_core._open_flags import CLOEXEC, NOFOLLOW, NONBLOCK
from gent_core._user_dirs import owned_by_user, trusted_dir

__all__ = [
    "MAX_FILE_SIZE",
    "SETTLE_SECONDS",
    "cache_dir",
    "declared_plugins",
    "declares",
    "enabled",
    "recall",
    "remember",
    "started",
]

FORMAT = 2
"""The version of the file layout (a file of another version is ignored). 2: the installed
state and the module sources are recorded apart (the first is computed again at recall)."""

SETTLE_SECONDS = 2.0
"""How long before a computation a recorded file must have stopped changing."""

PRUNE_DAYS = 30
"""A cache file not written for this many days is removed when another is written."""

MAX_FILE_SIZE = 8 * 1024 * 1024
"""The largest cache file read (and the largest ``entry_points.txt``); larger is ignored."""

ENTRY_POINT_GROUP = "gent"
"""The entry-point group of gent's plugins (as the plugin manager reads it)."""


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


def _installed_stamps() -> list[_Stamp]:
    """The stamps of the installed state: each ``sys.path`` directory and the metadata and
    ``.pth`` files in it (computed at every recall, never taken from the cache file).
    """
    directories = _path_entries()
    paths = [*directories]
    for directory in directories:
        paths += _installed_files(directory)
    return [_stamp(path) for path in dict.fromkeys(paths)]


def _read_file(path: str, limit: int, *, own: bool) -> bytes | None:
    """The bytes of the regular file ``path`` of at most ``limit`` bytes, else ``None``.

    Opened without blocking (a FIFO) and checked on the open descriptor before anything is
    read, then read within the limit. With ``own``, the file must also be this user's, not
    writable by others, and not reached through a link.
    """
    flags = os.O_RDONLY | NONBLOCK | CLOEXEC | (NOFOLLOW if own else 0)
    try:
        descriptor = os.open(path, flags)
    except (OSError, ValueError):
        return None
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode) or status.st_size > limit:
            return None
        if own and not owned_by_user(status):
            return None
        chunks: list[bytes] = []
        left = limit + 1
        wanted = status.st_size + 1  # one more: a file that grew is seen
        while left > 0:
            chunk = os.read(descriptor, min(left, wanted, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
            wanted = 1 << 20  # it grew (or its size said nothing): on in 1 MiB pieces
        return None if left <= 0 else b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(descriptor)


def _fresh(stored: dict[str, Any], installed: list[_Stamp]) -> bool:
    """Whether a stored entry's fingerprint is the one computed now: the installed state
    (``sys.path`` directories and their metadata files, computed here, never read from the
    file) exactly, and every recorded module source unchanged.
    """
    recorded = stored.get("installed")
    modules = stored.get("modules")
    if not isinstance(recorded, list) or not isinstance(modules, list):
        return False
    if recorded != [list(stamp) for stamp in installed]:
        return False
    for stamp in modules:
        if not (isinstance(stamp, list) and len(stamp) == 3 and isinstance(stamp[0], str)):
            return False
        path, mtime, size = stamp
        if mtime is None or _stamp(path) != (path, mtime, size):
            return False
    return True


def recall(topic: str) -> Any | None:
    """The value remembered for ``topic`` when everything it was computed from is unchanged;
    ``None`` when there is none, it is stale, unreadable, corrupt or not the user's own (see
    :func:`gent_core._user_dirs.trusted_dir`), or the cache is off.

    The value only ever saves work: a caller that imports what it names checks each name
    against :func:`declared_plugins` first.
    """
    if not enabled():
        return None
    try:
        key = _key(topic)
        target = _file_for(key)
        if not trusted_dir(os.path.dirname(target)):
            return None
        data = _read_file(target, MAX_FILE_SIZE, own=True)
        if data is None:
            return None
        stored = json.loads(data)
        if not isinstance(stored, dict) or stored.get("key") != key:
            return None
        if not _fresh(stored, _installed_stamps()):
            return None
        return stored["value"]
    except Exception:  # noqa: BLE001 - a cache that cannot be read is no cache
        return None


def remember(topic: str, value: Any, since: int) -> None:
    """Store ``value`` (JSON-ready) for ``topic``, computed in a computation that began at
    ``since`` (:func:`started`); silently nothing when the cache is off, cannot be written,
    is not the user's own, or a recorded file changed too recently for its time stamp to
    prove it unchanged.

    The file is written as a new file (``O_EXCL``, never through a link) in the cache
    directory and renamed over the old one.
    """
    if not enabled():
        return
    partial = ""
    try:
        installed = _installed_stamps()
        modules = [_stamp(path) for path in dict.fromkeys(_module_files())]
        settled = since - int(SETTLE_SECONDS * 1e9)
        if any(mtime is not None and mtime >= settled for _, mtime, _ in installed + modules):
            return
        key = _key(topic)
        target = _file_for(key)
        directory = os.path.dirname(target)
        os.makedirs(directory, mode=0o700, exist_ok=True)
        if not trusted_dir(directory):
            return
        text = json.dumps({"key": key, "installed": installed, "modules": modules, "value": value})
        import tempfile

        descriptor, partial = tempfile.mkstemp(prefix=f"{topic}-", suffix=".tmp", dir=directory)
        with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(partial, target)
        partial = ""
        _prune(topic, keep=target)
    except Exception:  # noqa: BLE001 - an unwritable cache (read-only home) is no cache
        if partial:
            with contextlib.suppress(OSError):
                os.unlink(partial)


def declared_plugins() -> dict[str, frozenset[str]]:
    """Every plugin the installed distributions declare (the ``gent`` entry points of the
    ``entry_points.txt`` files on ``sys.path``): its name and the entry points' values.

    Read without :mod:`importlib.metadata`, each file bounded; an unreadable file declares
    nothing. A remembered value may name only these plugins and their packages.
    """
    declared: dict[str, set[str]] = {}
    for directory in _path_entries():
        for path in _installed_files(directory):
            if os.path.basename(path) == "entry_points.txt":
                for name, value in _gent_entry_points(path):
                    declared.setdefault(name, set()).add(value)
    return {name: frozenset(values) for name, values in declared.items()}


def _gent_entry_points(path: str) -> list[tuple[str, str]]:
    """The ``name = value`` lines of the ``[gent]`` section of one ``entry_points.txt``."""
    data = _read_file(path, MAX_FILE_SIZE, own=False)
    if data is None:
        return []
    found: list[tuple[str, str]] = []
    section = ""
    for raw in data.decode("utf-8", "replace").splitlines():
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == ENTRY_POINT_GROUP and "=" in line and not line.startswith(("#", ";")):
            name, _, value = line.partition("=")
            found.append((name.strip(), value.strip()))
    return found


def declares(declared: Mapping[str, frozenset[str]], plugin: str, module: str) -> bool:
    """Whether ``module`` belongs to ``plugin`` as the installed entry points declare it:
    the plugin is declared, and the module is in the top-level package of one of its entry
    points (``gent_eval.cli`` for ``eval = gent_eval.plugin``).
    """
    for value in declared.get(plugin, ()):
        package = value.partition(":")[0].strip().split(".")[0]
        if package and (module == package or module.startswith(package + ".")):
            return True
    return False


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
