"""Component lookup: collisions, qualified names, suggestions, malformed registrations."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import SimpleNamespace
from typing import Any

import pytest

from gent_core import hookimpl
from gent_core._plugins import PluginSelection
from gent_core._terminations.text import TextTermination
from gent_core.errors import (
    AmbiguousComponentError,
    ComponentNotFoundError,
    GentError,
    PluginLoadError,
)
from gent_core.testing import PluginSandbox


class FakeFormat:
    def __init__(self, flavour: str = "plain") -> None:
        self.flavour = flavour


def format_plugin(*names: str) -> object:
    class Plugin:
        @hookimpl
        def gent_register_formats(self) -> Mapping[str, Callable[..., Any]]:
            return {name: FakeFormat for name in names}

    return Plugin()


def test_unqualified_lookup_returns_the_only_provider(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(format_plugin("xml"), "alpha")
    entry = gent_plugins.registry().get("format", "xml")
    assert (entry.plugin, entry.name, entry.factory) == ("alpha", "xml", FakeFormat)


def test_collision_names_both_plugins(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(format_plugin("xml"), "alpha")
    gent_plugins.register(format_plugin("xml"), "beta")
    registry = gent_plugins.registry()
    with pytest.raises(AmbiguousComponentError) as caught:
        registry.get("format", "xml")
    message = str(caught.value)
    assert "alpha" in message and "beta" in message
    assert "alpha:xml" in message and "beta:xml" in message
    assert caught.value.plugins == ("alpha", "beta")


def test_qualified_name_picks_one_provider(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(format_plugin("xml"), "alpha")
    gent_plugins.register(format_plugin("xml"), "beta")
    registry = gent_plugins.registry()
    assert registry.get("format", "beta:xml").plugin == "beta"
    assert registry.get("format", "alpha:xml").plugin == "alpha"
    assert registry.names("format") == ["alpha:xml", "beta:xml"]


def test_qualified_name_with_wrong_plugin_is_not_found(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(format_plugin("xml"), "alpha")
    with pytest.raises(ComponentNotFoundError) as caught:
        gent_plugins.registry().get("format", "gamma:xml")
    assert caught.value.suggestion == "alpha:xml"


def test_unknown_name_lists_available_and_suggests_closest(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(format_plugin("xml", "markdown"), "formats")
    with pytest.raises(ComponentNotFoundError) as caught:
        gent_plugins.registry().get("format", "markdwn")
    error = caught.value
    assert error.suggestion == "markdown"
    assert error.available == ("markdown", "xml")
    assert "did you mean 'markdown'?" in str(error)
    assert "Available formats: markdown, xml." in str(error)


def test_unknown_name_without_close_match_has_no_suggestion(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(format_plugin("xml"), "formats")
    with pytest.raises(ComponentNotFoundError) as caught:
        gent_plugins.registry().get("format", "qqqqqq")
    assert caught.value.suggestion is None
    assert "did you mean" not in str(caught.value)


def test_kinds_are_separate_namespaces(gent_plugins: PluginSandbox) -> None:
    class Chain:
        @hookimpl
        def gent_register_toolchains(self) -> Mapping[str, Callable[..., Any]]:
            return {"json": FakeFormat}

    gent_plugins.register(Chain(), "chains")
    registry = gent_plugins.registry()
    assert registry.get("toolchain", "json").plugin == "chains"
    with pytest.raises(ComponentNotFoundError):
        registry.get("format", "json")


def test_create_passes_options(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(format_plugin("xml"), "alpha")
    created = gent_plugins.registry().create("format", "xml", flavour="strict")
    assert isinstance(created, FakeFormat) and created.flavour == "strict"


def test_create_with_unknown_option_names_the_component(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(format_plugin("xml"), "alpha")
    with pytest.raises(GentError, match=r"format 'xml' does not accept these options.*colour"):
        gent_plugins.registry().create("format", "xml", colour="red")


def test_tools_are_registered_by_their_name(gent_plugins: PluginSandbox) -> None:
    ready_tool = SimpleNamespace(name="echo")

    class ToolClass:
        name = "configurable"

        def __init__(self, root: str = ".") -> None:
            self.root = root

    class Plugin:
        @hookimpl
        def gent_register_tools(self) -> Sequence[Any]:
            return [ready_tool, ToolClass]

    gent_plugins.register(Plugin(), "tools")
    registry = gent_plugins.registry()
    assert registry.names("tool") == ["configurable", "echo"]
    assert registry.create("tool", "echo") is ready_tool
    assert registry.create("tool", "configurable", root="/srv").root == "/srv"
    with pytest.raises(GentError, match="takes no options"):
        registry.create("tool", "echo", verbose=True)


def test_registration_hook_that_raises_marks_plugin_failed(gent_plugins: PluginSandbox) -> None:
    class Broken:
        @hookimpl
        def gent_register_formats(self) -> Mapping[str, Callable[..., Any]]:
            raise RuntimeError("boom while registering")

    gent_plugins.register(format_plugin("xml"), "good")
    gent_plugins.register(Broken(), "broken")
    registry = gent_plugins.registry()
    assert registry.get("format", "xml").plugin == "good"
    info = gent_plugins.manager.plugin_infos["broken"]
    assert info.status == "failed"
    assert info.error is not None and "boom while registering" in info.error
    assert gent_plugins.manager.plugin_infos["good"].components == {"format": ["xml"]}


def test_malformed_registration_is_a_failure_not_a_crash(gent_plugins: PluginSandbox) -> None:
    class WrongShape:
        @hookimpl
        def gent_register_formats(self) -> Any:
            return ["xml"]  # a list instead of a mapping

    gent_plugins.register(WrongShape(), "wrong")
    gent_plugins.registry()
    info = gent_plugins.manager.plugin_infos["wrong"]
    assert info.status == "failed"
    assert info.error is not None and "must return a mapping" in info.error


def test_strict_mode_makes_registration_failure_fatal() -> None:
    sandbox = PluginSandbox(PluginSelection(strict=True))

    class Broken:
        @hookimpl
        def gent_register_models(self) -> Mapping[str, Callable[..., Any]]:
            raise ValueError("no models today")

    sandbox.register(Broken(), "broken")
    with pytest.raises(PluginLoadError, match=r"plugin 'broken' failed to load.*no models today"):
        sandbox.registry()


def test_builtin_core_plugin_supplies_terminations(gent_plugins: PluginSandbox) -> None:
    from gent_core import _builtin as plugin

    gent_plugins.register(plugin, "core")
    registry = gent_plugins.registry()
    assert registry.names("termination") == ["json", "text"]
    assert isinstance(registry.create("termination", "text"), TextTermination)
