"""Plugins adding hook specifications (``gent_add_hookspecs``, as pytest's
``pytest_addhooks``): the hooks they add are callable, other plugins implement them whatever
the order the plugins load in, and typos or wrong arguments still fail the plugin at fault."""

from __future__ import annotations

import importlib
import textwrap
from importlib import metadata
from pathlib import Path

import pytest

from gent_core import GentPluginManager, PluginSelection
from gent_core.errors import PluginLoadError
from gent_core.testing import PluginSandbox

SPECS = '''
from gent_core import hookspec

@hookspec
def gent_demo_widgets():
    """Supply widgets."""
'''

PROVIDER = """
from gent_core import hookimpl

@hookimpl
def gent_add_hookspecs(pluginmanager):
    import demo_specs

    pluginmanager.add_hookspecs(demo_specs)

@hookimpl
def gent_demo_widgets():
    return ["own"]
"""

USER = """
from gent_core import hookimpl

@hookimpl
def gent_demo_widgets():
    return ["extra"]
"""

WRONG_ARGUMENTS = """
from gent_core import hookimpl

@hookimpl
def gent_demo_widgets(colour):
    return [colour]
"""

TYPO = """
from gent_core import hookimpl

@hookimpl
def gent_demo_widgetz():
    return ["lost"]
"""


@pytest.fixture
def modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    sources = {
        "demo_specs": SPECS,
        "demo_provider": PROVIDER,
        "demo_user": USER,
        "demo_wrong": WRONG_ARGUMENTS,
        "demo_typo": TYPO,
    }
    for name, source in sources.items():
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(source))
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def entry_points(*pairs: tuple[str, str]) -> list[metadata.EntryPoint]:
    return [metadata.EntryPoint(name=name, value=value, group="gent") for name, value in pairs]


def load(*pairs: tuple[str, str], strict: bool = False) -> GentPluginManager:
    manager = GentPluginManager(PluginSelection(strict=strict))
    manager.load_entry_points(entry_points(*pairs))
    return manager


@pytest.mark.parametrize(
    "order",
    [
        [("provider", "demo_provider"), ("user", "demo_user")],
        [("user", "demo_user"), ("provider", "demo_provider")],  # the user loads first
    ],
)
def test_a_plugin_adds_a_hook_that_other_plugins_implement_in_any_order(
    modules: Path, order: list[tuple[str, str]]
) -> None:
    manager = load(*order)
    assert manager.loaded_plugin_names() == [name for name, _ in order]
    assert sorted(item for items in manager.hook.gent_demo_widgets() for item in items) == [
        "extra",
        "own",
    ]
    assert "gent_demo_widgets" in manager.known_hooks()
    assert "gent_add_hookspecs" in manager.known_hooks()


def test_a_plugin_registered_later_adds_its_hooks_too(modules: Path) -> None:
    demo_provider = importlib.import_module("demo_provider")
    sandbox = PluginSandbox()
    assert not hasattr(sandbox.manager.hook, "gent_demo_widgets")
    assert sandbox.register(demo_provider, "provider").status == "loaded"
    assert sandbox.manager.hook.gent_demo_widgets() == [["own"]]


def test_a_hook_nobody_specifies_still_fails_its_plugin(modules: Path) -> None:
    manager = load(("typo", "demo_typo"), ("provider", "demo_provider"))
    info = manager.plugin_infos["typo"]
    assert info.status == "failed"
    assert info.error is not None
    assert "unknown hook 'gent_demo_widgetz'" in info.error
    assert "gent_demo_widgets" in info.error  # the known hooks, the added one among them
    assert manager.plugin_infos["provider"].status == "loaded"
    with pytest.raises(PluginLoadError, match="unknown hook 'gent_demo_widgetz'"):
        load(("typo", "demo_typo"), strict=True)


def test_an_implementation_the_new_spec_does_not_fit_fails_its_own_plugin(
    modules: Path,
) -> None:
    manager = load(("wrong", "demo_wrong"), ("provider", "demo_provider"))
    wrong = manager.plugin_infos["wrong"]
    assert wrong.status == "failed"
    assert wrong.error is not None and "takes ['colour']" in wrong.error
    assert manager.plugin_infos["provider"].status == "loaded"
    assert manager.hook.gent_demo_widgets() == [["own"]]
