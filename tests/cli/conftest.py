"""A sandbox of plugins made the process-wide plugin manager, for tests of gent tools/call."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gent_core.testing import PluginSandbox
from tests.cli.tool_plugin import DemoTools


@pytest.fixture
def installed(gent_plugins: PluginSandbox) -> Iterator[PluginSandbox]:
    """core, xml, json, yaml, basic and the demo tools, as if they were installed."""
    import gent_json.plugin
    import gent_tools_basic.plugin
    import gent_xml.plugin
    import gent_yaml.plugin

    from gent_core import _builtin as builtin

    gent_plugins.register(builtin, "core")
    gent_plugins.register(gent_xml.plugin, "xml")
    gent_plugins.register(gent_json.plugin, "json")
    gent_plugins.register(gent_yaml.plugin, "yaml")
    gent_plugins.register(gent_tools_basic.plugin, "basic")
    gent_plugins.register(DemoTools(), "demo")
    with gent_plugins.as_process_manager():
        yield gent_plugins
