"""The plugin template is a working plugin (so copies of it start green)."""

from __future__ import annotations

import sys
from pathlib import Path

from gent_core.testing import PluginSandbox

TEMPLATE = Path(__file__).resolve().parents[2] / "plugins" / "_template"


def test_template_plugin_registers_and_works(gent_plugins: PluginSandbox) -> None:
    sys.path.insert(0, str(TEMPLATE))
    try:
        from gent_template import plugin  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(TEMPLATE))
    info = gent_plugins.register(plugin, "template")
    assert info.status == "loaded"
    termination = gent_plugins.registry().create("termination", "template")
    assert termination.parse("  fine ") == "fine"
    assert termination.parse("   ") is None
