r"""Where the history database lives, and the switch that turns logging off.

The database is ``logs.db`` in gent's data directory:

* ``$GENT_HOME`` when it is set (tests and portable setups);
* otherwise the platform's user data directory: ``$XDG_DATA_HOME/gent`` (by default
  ``~/.local/share/gent``) on Linux and other Unixes, ``~/Library/Application Support/gent`` on
  macOS, ``%LOCALAPPDATA%\\gent`` on Windows.

``gent logs off`` creates the file ``logs-off`` beside the database (the convention of
``llm logs off``); ``gent logs on`` removes it.
"""

from __future__ import annotations

import os
from pathlib import Path

from gent_core.cliframe import user_dir

__all__ = ["DATABASE_NAME", "OFF_MARKER", "data_dir", "database_path", "logging_enabled"]

DATABASE_NAME = "logs.db"
"""The database's file name in the data directory."""

OFF_MARKER = "logs-off"
"""The file whose presence in the data directory switches logging off."""


def data_dir() -> Path:
    """The data directory of gent (not created here)."""
    home = os.environ.get("GENT_HOME")
    if home:
        return Path(home).expanduser()
    return Path(user_dir("data"))


def database_path() -> Path:
    """The history database's path (``gent logs path``)."""
    return data_dir() / DATABASE_NAME


def logging_enabled() -> bool:
    """Whether runs are logged (``gent logs off`` was not given, or ``gent logs on`` since)."""
    return not (data_dir() / OFF_MARKER).exists()
