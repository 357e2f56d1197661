"""The ``gent`` command: --version and plugins."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from gent_core import __version__
from gent_core._builtin import COMMANDS as BUILTIN_COMMANDS
from gent_core._cli.main import main
from gent_core._cli.plugins import render_table
from gent_core._plugins import PluginInfo


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--version"])
    assert caught.value.code == 0
    assert capsys.readouterr().out.strip() == f"gent {__version__}"


def test_no_command_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "plugins" in capsys.readouterr().out


def test_plugins_json_lists_the_core_plugin(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plugins", "--json"]) == 0
    listed = {info["name"]: info for info in json.loads(capsys.readouterr().out)}
    core = listed["core"]
    assert core["distribution"] == "gent-core"
    assert core["version"] == __version__
    assert core["status"] == "loaded"
    assert core["error"] is None
    assert core["components"] == {
        "termination": ["text", "json"],
        "model": ["scripted"],
        "command": list(BUILTIN_COMMANDS),  # the built-in commands come through the hook too
    }
    assert {"run", "plugins", "help"} <= set(core["components"]["command"])


def test_table_shows_components_and_last_error_line() -> None:
    table = render_table(
        [
            PluginInfo("core", "m", "gent-core", "0.1.0", components={"termination": ["text"]}),
            PluginInfo("bad", "b", "gent-bad", "1.0", "failed", "Traceback\nValueError: nope"),
        ]
    )
    lines = table.splitlines()
    assert lines[0].split() == ["PLUGIN", "DISTRIBUTION", "VERSION", "STATUS", "SUPPLIES"]
    assert lines[1].split() == ["core", "gent-core", "0.1.0", "loaded", "terminations:", "text"]
    assert lines[2].endswith("ValueError: nope")


def test_import_gent_core_imports_no_plugin_and_nothing_heavy() -> None:
    probe = (
        "import sys, gent_core\n"
        "heavy = [m for m in ('pydantic', 'yaml', 'pluggy', 'gent_core._builtin') "
        "if m in sys.modules]\n"
        "tops = {m.split('.')[0] for m in sys.modules}\n"
        "plugins = sorted(t for t in tops if t.startswith('gent_') and t != 'gent_core')\n"
        "print(heavy, plugins)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[] []"
