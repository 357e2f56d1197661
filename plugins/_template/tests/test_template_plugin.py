from gent_template import plugin

from gent_core.testing import PluginSandbox


def test_registers_its_component(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(plugin, "template")
    termination = gent_plugins.registry().create("termination", "template")
    assert termination.parse(" ok ") == "ok"
