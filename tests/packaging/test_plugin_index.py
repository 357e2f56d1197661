"""The index of gent's own plugin distributions: generated from plugins/, shown by
``gent plugins --available``, and named by the error of a component that is not installed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from gent_core._cli.main import main
from gent_core._plugins import available
from gent_core._plugins.kinds import KINDS
from gent_core.errors import ComponentNotFoundError
from gent_core.testing import PluginSandbox

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import gen_plugin_index  # noqa: E402


@pytest.fixture
def nothing_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if none of gent's own distributions were installed."""
    monkeypatch.setattr(available, "installed", lambda distribution: False)


def test_the_committed_index_is_what_the_plugins_folder_supplies_now() -> None:
    expected = gen_plugin_index.render(gen_plugin_index.build_index())
    committed = (ROOT / "gent_core" / "_plugins" / "available.json").read_text("utf-8")
    assert committed == expected, "run: python tools/gen_plugin_index.py"


def test_every_distribution_under_plugins_is_in_the_index_with_known_kinds() -> None:
    index = {entry.distribution: entry for entry in available.available_plugins()}
    assert set(index) == set(gen_plugin_index.plugin_folders())
    for entry in index.values():
        assert (ROOT / entry.folder / "pyproject.toml").is_file()
        assert set(entry.supplies) <= set(KINDS)
    assert "read_file" in index["gent-tools-files"].supplies["tool"]
    assert "new-plugin" in index["gent-template"].supplies["command"]


def test_the_hint_names_the_distribution_and_the_install_command(nothing_installed: None) -> None:
    hint = available.install_hint("tool", "read_file")
    assert hint == (
        "tool 'read_file' comes with gent-tools-files (not installed); from a checkout of "
        "gent: gent install ./plugins/gent-tools-files"
    )
    assert available.install_hint("tool", "files:read_file") == hint.replace(
        "'read_file'", "'files:read_file'"
    )
    assert available.install_hint("tool", "basic:read_file") is None
    assert available.install_hint("tool", "no_such_tool") is None
    assert available.install_hint("format", "read_file") is None


def test_no_hint_for_a_distribution_that_is_installed() -> None:
    # The development environment installs every plugin: a missing component of an
    # installed distribution is a typo, a disabled or a failed plugin, not an install.
    assert available.installed("gent-tools-files")
    assert available.install_hint("tool", "read_file") is None


def test_an_unknown_component_names_its_distribution(
    gent_plugins: PluginSandbox, nothing_installed: None
) -> None:
    import gent_tools_basic.plugin

    gent_plugins.register(gent_tools_basic.plugin, "basic")
    with pytest.raises(ComponentNotFoundError) as raised:
        gent_plugins.registry().get("tool", "read_file")
    assert "gent install ./plugins/gent-tools-files" in str(raised.value)
    with pytest.raises(ComponentNotFoundError) as raised:
        gent_plugins.registry().get("toolchain", "pythonic")
    assert "comes with gent-pythonic" in str(raised.value)


def test_a_damaged_index_is_an_empty_one(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("importlib.resources.files", lambda package: tmp_path)
    damaged = ("{", '{"distributions": 3}', '{"distributions": [{"plugin": 1}]}', "[]", "")
    for text in damaged:
        (tmp_path / available.INDEX_FILE).write_text(text)
        available.available_plugins.cache_clear()
        assert available.available_plugins() == ()
        assert available.install_hint("tool", "read_file") is None
    (tmp_path / available.INDEX_FILE).unlink()
    available.available_plugins.cache_clear()
    assert available.available_plugins() == ()
    monkeypatch.undo()
    available.available_plugins.cache_clear()


def test_plugins_available_lists_every_distribution(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plugins", "--available", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert {item["distribution"] for item in listing} == set(gen_plugin_index.plugin_folders())
    assert all(item["installed"] is True for item in listing)
    assert main(["plugins", "--available"]) == 0
    table = capsys.readouterr().out
    assert "gent-tools-files" in table and "read_file" in table
    assert "gent install ./plugins/DISTRIBUTION" in table
