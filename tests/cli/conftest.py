"""Fixtures of the CLI tests: a sandbox of plugins made the process-wide plugin manager (for
gent tools/call), and a recorder in place of pip (for gent install/uninstall)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from gent_core._cli import pip as gent_pip
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


@pytest.fixture
def pip_runs(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The pip command lines gent would run (pip is not run; it 'succeeds')."""
    runs: list[list[str]] = []

    def record(command: Sequence[str]) -> int:
        runs.append(list(command))
        return 0

    monkeypatch.setattr(gent_pip, "run_pip", record)
    return runs
