"""Importing an object named in a config: ``"package.module:Name"``.

A config names Python objects by import path (``termination: {name: json, schema:
"answers:Verdict"}``). :func:`import_object` imports them from the installed packages and
``PYTHONPATH`` first; when the module is not found there, it looks again in the folders of
:func:`import_search_path`: while an agent's components are built from a config file, those
are **the config file's folder, then the current directory**, so ``answers.py`` next to
``agent.yaml`` is found without setting ``PYTHONPATH``. The folders are on ``sys.path`` only
for that one lookup.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from gent_core.errors import GentError, describe_error

__all__ = ["import_object", "import_search_path"]

_SEARCH: ContextVar[tuple[Path, ...]] = ContextVar("gent_import_search", default=())
_SYS_PATH_LOCK = threading.Lock()


@contextmanager
def import_search_path(*folders: str | os.PathLike[str]) -> Iterator[None]:
    """Let :func:`import_object` also look in ``folders`` (in order) while the block runs."""
    unique = tuple(dict.fromkeys(Path(folder).resolve() for folder in folders))
    token = _SEARCH.set(unique)
    try:
        yield
    finally:
        _SEARCH.reset(token)


def _split(path: str) -> tuple[str, str]:
    module_name, sep, attribute = path.partition(":")
    if not sep:
        module_name, _, attribute = path.rpartition(".")
    if not module_name or not attribute:
        raise GentError(
            f"invalid import path {path!r}", hint="Write it as 'package.module:ClassName'."
        )
    return module_name.strip(), attribute.strip()


def _is_missing(error: ModuleNotFoundError, module_name: str) -> bool:
    """Whether ``error`` says ``module_name`` (or a package above it) is missing, rather
    than a module it imports.
    """
    missing = error.name or ""
    return module_name == missing or module_name.startswith(missing + ".")


def _import_from(module_name: str, folders: tuple[Path, ...]) -> Any:
    with _SYS_PATH_LOCK:
        added = [str(folder) for folder in folders if str(folder) not in sys.path]
        sys.path[:0] = added
        try:
            importlib.invalidate_caches()
            return importlib.import_module(module_name)
        finally:
            for entry in added:
                if entry in sys.path:
                    sys.path.remove(entry)


def import_object(path: str) -> Any:
    """Import ``"package.module:Name"`` (or ``"package.module.Name"``) and return the object.

    The installed packages (and ``PYTHONPATH``) come first; a module found in none of them is
    looked for in the folders of :func:`import_search_path`.

    Raises:
        GentError: Naming the path, what went wrong and where the module was looked for.
    """
    module_name, attribute = _split(path)
    folders = _SEARCH.get()
    try:
        try:
            value: Any = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if not folders or not _is_missing(error, module_name):
                raise
            value = _import_from(module_name, folders)
        for part in attribute.split("."):
            value = getattr(value, part)
    except ModuleNotFoundError as error:
        searched = "the installed packages and PYTHONPATH"
        if folders:
            searched += ", then " + ", ".join(str(folder) for folder in folders)
        raise GentError(
            f"cannot import {path!r}: {error} (looked in {searched})",
            hint="Put the module next to the config file or in the current directory, "
            "install its package, or add its folder to PYTHONPATH.",
        ) from error
    except (ImportError, AttributeError) as error:
        raise GentError(f"cannot import {path!r}: {error}") from error
    except Exception as error:  # the module itself raised while importing (SyntaxError...)
        raise GentError(
            f"cannot import {path!r}: importing it raised {describe_error(error)}"
        ) from error
    return value
