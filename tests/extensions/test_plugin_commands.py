"""Plugins add subcommands to ``gent`` through ``gent_register_commands``."""

from __future__ import annotations

import logging
from collections.abc import Mapping

import pytest

from gent_core import hookimpl
from gent_core._cli.main import main
from gent_core._plugins.commands import Command
from gent_core.testing import PluginSandbox


class Commands:
    @hookimpl
    def gent_register_commands(self) -> Mapping[str, Command]:
        return {
            "hello": Command("tests.extensions.cmdplugin.hello", "say hello"),
            "broken": Command("tests.extensions.cmdplugin.broken", "never works"),
            "run": Command("tests.extensions.cmdplugin.hello", "tries to replace gent run"),
        }


class Rival:
    @hookimpl
    def gent_register_commands(self) -> Mapping[str, Command]:
        return {"hello": Command("tests.extensions.cmdplugin.hello", "another hello")}


class BadName:
    @hookimpl
    def gent_register_commands(self) -> Mapping[str, Command]:
        return {"Bad Name": Command("tests.extensions.cmdplugin.hello")}


def test_a_plugin_command_runs_with_its_own_arguments(
    gent_plugins: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    gent_plugins.register(Commands(), "commands")
    with gent_plugins.as_process_manager():
        code = main(["hello", "world", "--shout"])
    assert code == 3
    assert capsys.readouterr().out == "HELLO WORLD\n"


def test_help_lists_plugin_commands_and_a_broken_one_is_left_out_with_a_warning(
    gent_plugins: PluginSandbox,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    gent_plugins.register(Commands(), "commands")
    with gent_plugins.as_process_manager(), pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "hello" in out
    assert "say hello" in out
    assert "broken" not in out
    warnings = [record.getMessage() for record in caplog.records]
    assert any(
        "'broken' is unavailable" in text and "dependency is missing" in text for text in warnings
    )
    assert any("'run', which is a built-in command" in text for text in warnings)


def test_a_built_in_command_cannot_be_replaced(
    gent_plugins: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    gent_plugins.register(Commands(), "commands")
    with gent_plugins.as_process_manager():
        code = main(["run", "missing.yaml", "task"])
    assert code == 2  # gent run's own error, not the plugin's hello (exit 3)
    assert "config file not found" in capsys.readouterr().err


def test_a_command_supplied_by_two_plugins_is_added_by_neither(
    gent_plugins: PluginSandbox, caplog: pytest.LogCaptureFixture
) -> None:
    gent_plugins.register(Commands(), "commands")
    gent_plugins.register(Rival(), "rival")
    caplog.set_level(logging.WARNING)
    with gent_plugins.as_process_manager(), pytest.raises(SystemExit):
        main(["hello", "x"])
    assert any("several plugins (commands, rival)" in r.getMessage() for r in caplog.records)


def test_an_invalid_command_name_fails_the_plugin(gent_plugins: PluginSandbox) -> None:
    info = gent_plugins.register(BadName(), "badname")
    gent_plugins.registry()
    assert info.status == "failed"
    assert "'Bad Name' is not valid" in (info.error or "")


def test_version_needs_no_plugin(
    gent_plugins: PluginSandbox,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    gent_plugins.register(Commands(), "commands")
    with gent_plugins.as_process_manager(), pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.startswith("gent ")
    assert not caplog.records  # the broken plugin command was never even looked at
