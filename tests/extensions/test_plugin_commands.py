"""Plugins add subcommands to ``gent`` through ``gent_register_commands``."""

from __future__ import annotations

import logging
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

from gent_core import hookimpl
from gent_core._cli.main import main
from gent_core._plugins.commands import Command
from gent_core._plugins.manager import PluginSelection
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


def test_help_lists_plugin_commands_without_importing_them(
    gent_plugins: PluginSandbox,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for module in ("tests.extensions.cmdplugin.hello", "tests.extensions.cmdplugin.broken"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    gent_plugins.register(Commands(), "commands")
    with gent_plugins.as_process_manager(), pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "hello        say hello" in out
    assert "broken       never works" in out  # listed from its Command: its module is not read
    assert "tests.extensions.cmdplugin.hello" not in sys.modules
    assert "tests.extensions.cmdplugin.broken" not in sys.modules
    warnings = [record.getMessage() for record in caplog.records]
    assert any("'run', which is a built-in command" in text for text in warnings)


def test_a_command_whose_module_fails_to_import_is_a_clear_error_when_asked_for(
    gent_plugins: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    gent_plugins.register(Commands(), "commands")
    with gent_plugins.as_process_manager():
        with pytest.raises(SystemExit) as exit_:
            main(["broken", "--help"])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert (
            "gent: error: the command 'broken' is unavailable: its module "
            "tests.extensions.cmdplugin.broken failed to load: ImportError: this command's "
            "dependency is missing"
        ) in err
        assert "Traceback" not in err
        assert main(["hello", "again"]) == 3  # every other command keeps working
    assert capsys.readouterr().out == "hello again\n"


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


class RaisingCommands:
    @hookimpl
    def gent_register_commands(self) -> Mapping[str, Command]:
        raise RuntimeError("cannot list my commands")


def test_the_built_in_commands_come_through_the_command_hook(gent_plugins: PluginSandbox) -> None:
    from gent_core import _builtin

    gent_plugins.register_core()
    supplied = gent_plugins.manager.hook.gent_register_commands()
    assert {"run", "plugins", "help", "completion"} <= set(supplied[0])
    assert gent_plugins.registry().get("command", "run").plugin == "core"
    assert dict(supplied[0]) == dict(_builtin.COMMANDS)


def test_the_built_in_commands_stay_when_the_core_plugin_is_disabled(
    capsys: pytest.CaptureFixture[str],
) -> None:
    sandbox = PluginSandbox(PluginSelection(disabled=frozenset({"core"})))
    assert sandbox.register_core().status == "disabled"
    sandbox.register(Commands(), "commands")
    with sandbox.as_process_manager(), pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "run          run an agent" in out
    assert "hello        say hello" in out


def test_a_mistyped_command_is_answered_with_the_closest_one(
    gent_plugins: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    gent_plugins.register(Commands(), "commands")
    with gent_plugins.as_process_manager():
        for typed, close in [("rnu", "run"), ("helo", "hello")]:
            with pytest.raises(SystemExit) as exit_:
                main([typed, "x"])
            assert exit_.value.code == 2
            err = capsys.readouterr().err
            assert f"unknown command {typed!r} (did you mean {close!r}?); commands: run, " in err
        with pytest.raises(SystemExit):
            main(["zzzzzz"])
    assert "unknown command 'zzzzzz'; commands: " in capsys.readouterr().err


def test_gent_help_shows_a_command_s_help(
    gent_plugins: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    gent_plugins.register(Commands(), "commands")
    with gent_plugins.as_process_manager():
        with pytest.raises(SystemExit):
            main(["hello", "--help"])
        direct = capsys.readouterr().out
        assert main(["help", "hello"]) == 0
        assert capsys.readouterr().out == direct
        assert "usage: gent hello [-h]" in direct
        assert main(["help"]) == 0
        assert "hello        say hello" in capsys.readouterr().out
        assert main(["help", "helo"]) == 2
        assert "unknown command 'helo' (did you mean 'hello'?)" in capsys.readouterr().err


def test_a_plugin_whose_command_hook_raises_supplies_no_command(
    gent_plugins: PluginSandbox,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    gent_plugins.register(Commands(), "commands")
    info = gent_plugins.register(RaisingCommands(), "raising")
    with gent_plugins.as_process_manager():
        assert main(["hello", "still"]) == 3
    assert capsys.readouterr().out == "hello still\n"
    assert info.status == "failed"
    assert "cannot list my commands" in (info.error or "")
    assert any(
        "plugin raising supplies no command" in record.getMessage() for record in caplog.records
    )


def test_a_sandbox_made_the_process_manager_is_never_answered_from_the_cache(
    gent_plugins: PluginSandbox,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """With the discovery cache on (the test kit turns it off), the commands of a sandbox's
    plugins are listed, and nothing is remembered for them.
    """
    from gent_core._plugins import cache
    from gent_core._plugins import manager as manager_module

    # No process-wide manager yet (an earlier test in this process may have built one).
    monkeypatch.setattr(manager_module, "_default_manager", None)
    monkeypatch.delenv("GENT_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    # Remember even what was edited a moment ago (the test's own files): not the point here.
    monkeypatch.setattr(cache, "SETTLE_SECONDS", -3600.0)
    main(["help"])  # the installed plugins' commands: found, and remembered
    remembered = sorted(tmp_path.rglob("*.json"))
    assert remembered  # the cache is on here
    capsys.readouterr()
    gent_plugins.register(Commands(), "commands")
    with gent_plugins.as_process_manager():
        assert main(["help"]) == 0
        assert main(["hello", "world"]) == 3
    out = capsys.readouterr().out
    assert "say hello" in out
    assert "hello world\n" in out
    assert sorted(tmp_path.rglob("*.json")) == remembered
