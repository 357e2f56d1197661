"""The pytest plugin of gent's testing kit (registered through the ``pytest11`` entry point)."""

from __future__ import annotations

import pytest

from gent_core.testing._helpers import PluginSandbox


@pytest.fixture
def gent_plugins() -> PluginSandbox:
    """An isolated plugin manager where tests register plugin objects without installing them."""
    return PluginSandbox()
