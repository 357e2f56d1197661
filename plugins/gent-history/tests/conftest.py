"""Fixtures of gent-history's tests: the plugins of a ``gent run`` (gent-history's among
them) as if installed, the history spy plugin, and an empty ``GENT_HOME``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import gent_history.plugin
import pytest
from history_plugin import Spy

from gent_core.testing import PluginSandbox


@pytest.fixture
def installed(gent_plugins: PluginSandbox) -> Iterator[PluginSandbox]:
    """core, history, xml, json and basic, as if installed (the process-wide manager)."""
    import gent_json.plugin
    import gent_tools_basic.plugin
    import gent_xml.plugin

    gent_plugins.register_core()
    gent_plugins.register(gent_history.plugin, "history")
    gent_plugins.register(gent_xml.plugin, "xml")
    gent_plugins.register(gent_json.plugin, "json")
    gent_plugins.register(gent_tools_basic.plugin, "basic")
    with gent_plugins.as_process_manager():
        yield gent_plugins


@pytest.fixture
def spy(installed: PluginSandbox) -> Spy:
    """The history spy plugin (:mod:`history_plugin`), registered."""
    watcher = Spy()
    installed.register(watcher, "spy")
    return watcher


@pytest.fixture
def home(installed: PluginSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty data directory (``GENT_HOME``) and current directory (the plugins of
    :func:`installed` the process's)."""
    monkeypatch.setenv("GENT_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    return tmp_path / "home"
