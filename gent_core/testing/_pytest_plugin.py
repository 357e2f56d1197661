"""The pytest plugin of gent's testing kit (registered through the ``pytest11`` entry point)."""

from __future__ import annotations

import pytest

from gent_core.testing._helpers import PluginSandbox


@pytest.fixture
def gent_plugins() -> PluginSandbox:
    """An isolated plugin manager where tests register plugin objects without installing them."""
    return PluginSandbox()


_SAVED_HOME = "_gent_saved_home"
_SAVED_NO_CACHE = "_gent_saved_no_cache"


def pytest_configure(config: pytest.Config) -> None:
    """Point gent's data directory (``GENT_HOME``: the run history) at a temporary directory
    for the test session, so the ``gent`` runs of tests, in this process or in the
    subprocesses it starts, never write to the user's own history; and turn the plugin
    discovery cache off (``GENT_NO_CACHE=1``), so tests that register, install or replace
    plugins always see what they set up, never an answer remembered from the user's runs.
    """
    import os
    import tempfile

    setattr(config, _SAVED_HOME, os.environ.get("GENT_HOME"))
    setattr(config, _SAVED_NO_CACHE, os.environ.get("GENT_NO_CACHE"))
    os.environ["GENT_HOME"] = tempfile.mkdtemp(prefix="gent-home-")
    os.environ["GENT_NO_CACHE"] = "1"


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the session's data directory and restore ``GENT_HOME`` and ``GENT_NO_CACHE``."""
    import os
    import shutil

    if not hasattr(config, _SAVED_HOME):
        return
    no_cache = getattr(config, _SAVED_NO_CACHE, None)
    if no_cache is None:
        os.environ.pop("GENT_NO_CACHE", None)
    else:
        os.environ["GENT_NO_CACHE"] = no_cache
    home = os.environ.get("GENT_HOME")
    saved = getattr(config, _SAVED_HOME)
    if saved is None:
        os.environ.pop("GENT_HOME", None)
    else:
        os.environ["GENT_HOME"] = saved
    if home:
        shutil.rmtree(home, ignore_errors=True)
