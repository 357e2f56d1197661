"""gent-template supplies ``gent new-plugin`` through the ``gent_register_commands`` hook, like
any plugin command, and ``GENT_DISABLE_PLUGINS=template`` switches it off (issue 18, §3)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def gent(*arguments: str, disable: str = "") -> subprocess.CompletedProcess[str]:
    environ = {key: value for key, value in os.environ.items() if not key.startswith("GENT_")}
    if disable:
        environ["GENT_DISABLE_PLUGINS"] = disable
    return subprocess.run(
        [sys.executable, "-m", "gent_core", *arguments],
        capture_output=True,
        text=True,
        env=environ,
        timeout=300,
    )


def test_the_plugin_supplies_the_command_through_the_hook() -> None:
    listed = gent("plugins", "--json")
    assert listed.returncode == 0, listed.stderr
    by_name = {info["name"]: info for info in json.loads(listed.stdout)}
    assert by_name["template"]["distribution"] == "gent-template"
    assert by_name["template"]["status"] == "loaded"
    assert by_name["template"]["components"] == {"command": ["new-plugin"]}
    helped = gent("--help")
    assert "new-plugin" in helped.stdout


def test_disabling_the_plugin_removes_the_command(tmp_path: Path) -> None:
    written = gent("new-plugin", "weather", "--dir", str(tmp_path / "on"))
    assert written.returncode == 0, written.stderr
    assert (tmp_path / "on" / "gent-weather" / "pyproject.toml").is_file()
    refused = gent("new-plugin", "weather", "--dir", str(tmp_path / "off"), disable="template")
    assert refused.returncode == 2
    assert "new-plugin" in refused.stderr  # argparse names the unknown command
    assert "Traceback" not in refused.stderr
    assert not (tmp_path / "off").exists()
    listed = gent("plugins", "--json", disable="template")
    by_name = {info["name"]: info for info in json.loads(listed.stdout)}
    assert by_name["template"]["status"] == "disabled"
    assert "new-plugin" not in gent("--help", disable="template").stdout
