"""The quick look for pluggy's markers (``gent_core._plugins.markers``) answers only where
pluggy's own answer is sure to be "no hook", and leaves every other name to pluggy: the
manager finds exactly the hooks pluggy finds, with far fewer of pluggy's lookups (counted).
"""

from __future__ import annotations

import types
from typing import Any

import pluggy
import pytest

from gent_core import hookimpl
from gent_core._plugins import markers
from gent_core._plugins.manager import GentPluginManager
from gent_core.context import ExecutionContext


class Plugin:
    """Hooks on the class, one on the instance, and names that are no hooks."""

    __slots__ = ("__dict__", "gent_transform_observation")

    not_a_hook = 3

    def helper(self) -> None:
        """A method with no marker."""

    @property
    def gent_run_started(self) -> Any:  # a property is never a hook (pluggy skips it)
        raise AssertionError("evaluated")

    @hookimpl
    def gent_step_finished(self, record: object, context: ExecutionContext) -> None:
        """A marked method."""

    @staticmethod
    @hookimpl
    def gent_run_finished(result: object, context: ExecutionContext) -> None:
        """A marked static method."""


def _slotted(context: ExecutionContext) -> None:
    """Held in a slot or the instance: pluggy's rules for them decide."""


_slotted.gent_impl = {}  # type: ignore[attr-defined]


def _plugin() -> Plugin:
    plugin = Plugin()
    plugin.gent_before_model_call = _slotted  # type: ignore[attr-defined]  # in its __dict__
    plugin.gent_transform_observation = _slotted  # type: ignore[attr-defined]
    return plugin


def _module() -> types.ModuleType:
    module = types.ModuleType("plugin_module")
    module.__dict__.update(
        gent_step_finished=Plugin.gent_step_finished,
        helper=Plugin.helper,
        Plugin=Plugin,
        value=1,
    )
    return module


@pytest.mark.parametrize("make", [_plugin, _module])
def test_every_answer_is_pluggys(make: Any) -> None:
    plugin = make()
    pluggy_manager = pluggy.PluginManager("gent")
    for name in dir(plugin):
        if markers.surely_unmarked(plugin, name, "gent_impl"):
            assert pluggy_manager.parse_hookimpl_opts(plugin, name) is None, name


@pytest.mark.parametrize("make", [_plugin, _module])
def test_the_manager_finds_the_hooks_pluggy_finds_with_fewer_lookups(
    make: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    plugin = make()
    plain = pluggy.PluginManager("gent")
    plain.add_hookspecs(__import__("gent_core.hookspecs").hookspecs)
    plain.register(plugin, name="plugin")
    expected = sorted(caller.name for caller in plain.get_hookcallers(plugin) or [])

    asked: list[str] = []
    parse = pluggy.PluginManager.parse_hookimpl_opts

    def counting(self: pluggy.PluginManager, plugin: object, name: str) -> Any:
        asked.append(name)
        return parse(self, plugin, name)

    monkeypatch.setattr(pluggy.PluginManager, "parse_hookimpl_opts", counting)
    manager = GentPluginManager()
    manager.register(plugin, name="plugin")
    assert sorted(caller.name for caller in manager.get_hookcallers(plugin) or []) == expected
    assert expected and len(asked) < len(dir(plugin)) // 2
