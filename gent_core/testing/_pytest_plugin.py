"""The pytest plugin of gent's testing kit (registered through the ``pytest11`` entry point)."""

from __future__ import annotations

import pytest

from gent_core.testing._helpers import PluginSandbox


@pytest.fixture
def gent_plugins() -> PluginSandbox:
    """An isolated plugin manager where tests register plugin objects without installing them."""
    return PluginSandbox()


_SAVED_HOME = "_gent_saved_home"


def pytest_configure(config: pytest.Config) -> None:
    """Point gent's data directory (``GENT_HOME``: the run history) at a temporary directory
    for the test session, so the ``gent`` runs of tests, in this process or in the
    subprocesses it starts, never write to the user's own history.
    """
    import os
    import tempfile

    setattr(config, _SAVED_HOME, os.environ.get("GENT_HOME"))
    os.environ["GENT_HOME"] = tempfile.mkdtemp(prefix="gent-home-")


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the session's data directory and restore ``GENT_HOME``."""
    import os
    import shutil

    if not hasattr(config, _SAVED_HOME):
        return
    home = os.environ.get("GENT_HOME")
    saved = getattr(config, _SAVED_HOME)
    if saved is None:
        os.environ.pop("GENT_HOME", None)
    else:
        os.environ["GENT_HOME"] = saved
    if home:
        shutil.rmtree(home, ignore_errors=True)
