"""Plugin loading: allow/deny lists, broken plugins, strict mode, hook-name validation."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import metadata
from typing import Any

import pytest

from gent_core import hookimpl
from gent_core._plugins import GentPluginManager, PluginSelection, build_plugin_manager
from gent_core.errors import PluginLoadError
from gent_core.testing import PluginSandbox


def fake_entry_point(name: str, value: str) -> metadata.EntryPoint:
    return metadata.EntryPoint(name=name, value=value, group="gent")


def test_selection_reads_environment() -> None:
    selection = PluginSelection.from_environment(
        {"GENT_PLUGINS": "xml, json", "GENT_DISABLE_PLUGINS": "json", "GENT_STRICT_PLUGINS": "1"}
    )
    assert selection.only == frozenset({"xml", "json"})
    assert selection.disabled == frozenset({"json"})
    assert selection.strict
    assert selection.refusal("xml") is None
    assert selection.refusal("json") == "disabled by GENT_DISABLE_PLUGINS"
    assert selection.refusal("yaml") == "not listed in GENT_PLUGINS"


def test_empty_environment_allows_everything() -> None:
    selection = PluginSelection.from_environment({"GENT_PLUGINS": " ", "GENT_STRICT_PLUGINS": "0"})
    assert selection.only is None and not selection.strict
    assert selection.refusal("anything") is None


def test_allow_list_loads_only_named_plugins() -> None:
    manager = GentPluginManager(PluginSelection(only=frozenset({"textwrap"})))
    manager.load_entry_points(
        [fake_entry_point("textwrap", "textwrap"), fake_entry_point("other", "json")]
    )
    assert manager.plugin_infos["textwrap"].status == "loaded"
    assert manager.plugin_infos["other"].status == "disabled"
    assert manager.plugin_infos["other"].error == "not listed in GENT_PLUGINS"
    assert manager.get_plugin("other") is None


def test_deny_list_blocks_plugins_without_importing_them() -> None:
    manager = GentPluginManager(PluginSelection(disabled=frozenset({"ghost"})))
    # The module does not exist: a blocked plugin must not even be imported.
    manager.load_entry_points([fake_entry_point("ghost", "no_such_module_for_gent_tests")])
    assert manager.plugin_infos["ghost"].status == "disabled"


def test_plugin_that_fails_to_import_is_reported_and_others_load() -> None:
    manager = GentPluginManager()
    manager.load_entry_points(
        [
            fake_entry_point("missing", "no_such_module_for_gent_tests"),
            fake_entry_point("fine", "textwrap"),
        ]
    )
    missing = manager.plugin_infos["missing"]
    assert missing.status == "failed"
    assert missing.error is not None
    assert (
        "ModuleNotFoundError" in missing.error and "no_such_module_for_gent_tests" in missing.error
    )
    assert manager.plugin_infos["fine"].status == "loaded"
    assert manager.loaded_plugin_names() == ["fine"]


def test_strict_mode_raises_naming_the_plugin() -> None:
    manager = GentPluginManager(PluginSelection(strict=True))
    with pytest.raises(PluginLoadError) as caught:
        manager.load_entry_points([fake_entry_point("missing", "no_such_module_for_gent_tests")])
    assert caught.value.plugin == "missing"
    assert "plugin 'missing'" in str(caught.value)


def test_hookimpl_without_prefix_fails_the_plugin(gent_plugins: PluginSandbox) -> None:
    class Typo:
        @hookimpl
        def register_formats(self) -> Mapping[str, Callable[..., Any]]:
            return {}

    info = gent_plugins.register(Typo(), "typo")
    assert info.status == "failed"
    assert info.error is not None and "'register_formats'" in info.error
    assert "gent_" in info.error


def test_misspelled_hook_fails_the_plugin(gent_plugins: PluginSandbox) -> None:
    class Misspelled:
        @hookimpl
        def gent_register_formatz(self) -> Mapping[str, Callable[..., Any]]:
            return {}

    info = gent_plugins.register(Misspelled(), "misspelled")
    assert info.status == "failed"
    assert info.error is not None
    assert "unknown hook 'gent_register_formatz'" in info.error
    assert "gent_register_formats" in info.error  # the known hooks are listed
    assert gent_plugins.manager.get_plugin("misspelled") is None


def test_hook_with_wrong_arguments_fails_the_plugin(gent_plugins: PluginSandbox) -> None:
    class WrongArgs:
        @hookimpl
        def gent_before_tool_call(self, call: Any, tool: Any, context: Any, extra: Any) -> None:
            return None

    info = gent_plugins.register(WrongArgs(), "wrongargs")
    assert info.status == "failed"
    assert info.error is not None and "extra" in info.error


def test_build_plugin_manager_loads_installed_core_plugin() -> None:
    manager = build_plugin_manager(selection=PluginSelection())
    assert manager.plugin_infos["core"].status == "loaded"
    assert manager.plugin_infos["core"].distribution == "gent-core"


def test_build_without_entry_points_is_empty() -> None:
    manager = build_plugin_manager(load_entry_points=False, selection=PluginSelection())
    assert manager.plugin_infos == {}
