"""``gent install`` / ``gent uninstall``: pip in the environment gent itself runs in."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from gent_core._cli import pip as gent_pip
from gent_core._cli.install import pip_arguments
from gent_core._cli.main import build_parser, main
from gent_core.testing._distributions import build_wheel, write_plugin_project

REPO = Path(__file__).resolve().parents[2]

PLUGIN = """
from gent_core import hookimpl
from gent_core.tools import tool


@tool
def shout(text: str) -> str:
    \"\"\"Say it louder.\"\"\"
    return text.upper()


@hookimpl
def gent_register_tools():
    return [shout]
"""


def parsed(*argv: str) -> argparse.Namespace:
    return build_parser(with_plugins=False).parse_args(["install", *argv])


def test_pip_options_pass_through_as_llm_install_does() -> None:
    assert pip_arguments(parsed("gent-mcp")) == ["gent-mcp"]
    assert pip_arguments(
        parsed(
            "-U",
            "-e",
            "./a",
            "--editable",
            "./b",
            "--force-reinstall",
            "--no-cache-dir",
            "--pre",
            "gent-mcp>=0.2",
        )
    ) == [
        "--upgrade",
        "--editable",
        "./a",
        "--editable",
        "./b",
        "--force-reinstall",
        "--no-cache-dir",
        "--pre",
        "gent-mcp>=0.2",
    ]


def test_pip_runs_with_the_python_running_gent() -> None:
    assert gent_pip.pip_command("install", ["x"], quiet=True) == [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "x",
    ]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("gent-core", "gent-core"),
        ("Gent_Core", "gent-core"),
        ("gent.core>=0.1", "gent-core"),
        ("gent-core[test]", "gent-core"),
        ("gent-mcp", "gent-mcp"),
    ],
)
def test_requirement_names(text: str, name: str) -> None:
    assert gent_pip.requirement_name(text) == name


def test_uninstalling_gent_itself_is_refused_before_pip_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ran: list[object] = []
    monkeypatch.setattr(gent_pip, "run_pip", ran.append)
    assert main(["uninstall", "-y", "gent-xml", "Gent_Core"]) == 2
    assert ran == []
    err = capsys.readouterr().err
    assert "refusing to uninstall gent-core: it is gent itself" in err
    assert "pipx uninstall gent-core" in err
    assert "nothing was removed" in err


def test_install_needs_something_to_install(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["install"]) == 2
    assert "name at least one package to install (or -e PATH)" in capsys.readouterr().err


def test_no_pip_in_gent_environment_is_explained(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "pip" else real(name, *a)
    )
    assert main(["install", "gent-mcp"]) == 2
    err = capsys.readouterr().err
    assert f"pip is not installed in the environment gent runs in ({sys.executable})" in err
    assert "-m ensurepip" in err


# --------------------------------------------------------------------------- a fresh venv


def _bin(environment: Path, name: str) -> Path:
    return environment / ("Scripts" if os.name == "nt" else "bin") / name


def _gent(environment: Path, *args: str) -> subprocess.CompletedProcess[str]:
    environ = {key: value for key, value in os.environ.items() if not key.startswith("GENT_")}
    return subprocess.run(
        [str(_bin(environment, "gent")), *args],
        capture_output=True,
        text=True,
        env=environ,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.slow
def test_install_and_uninstall_a_plugin_wheel_in_a_fresh_environment(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    core = build_wheel(REPO, wheels)
    project = write_plugin_project(tmp_path, "gent-shout", PLUGIN, entry_point="shout")
    plugin = build_wheel(project, wheels)
    environment = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(environment)
    python = str(_bin(environment, "python"))
    subprocess.run([python, "-m", "pip", "install", "-q", str(core)], check=True, timeout=600)

    installed = _gent(environment, "install", str(plugin))
    assert installed.returncode == 0, installed.stderr
    assert "Plugins installed:" in installed.stdout
    rows = [line.split() for line in installed.stdout.splitlines()]
    assert ["shout", "gent-shout", "0.0.1", "loaded", "tools:", "shout"] in rows

    listed = _gent(environment, "plugins", "--json")
    assert listed.returncode == 0, listed.stderr
    plugins = {info["name"]: info for info in json.loads(listed.stdout)}
    assert plugins["shout"]["status"] == "loaded"
    assert plugins["shout"]["components"] == {"tool": ["shout"]}
    tools = _gent(environment, "tools", "--json")
    assert [tool["name"] for tool in json.loads(tools.stdout)] == ["shout"]
    refused = _gent(environment, "uninstall", "-y", "gent-core")
    assert refused.returncode == 2
    assert "refusing to uninstall gent-core" in refused.stderr
    requirements = tmp_path / "req.txt"
    requirements.write_text("gent-core\n")
    smuggled = _gent(environment, "uninstall", "-y", "--", "-r", str(requirements))
    assert smuggled.returncode == 2  # pip never saw -r: gent-core is still there
    assert "'-r' looks like an option" in smuggled.stderr
    assert _gent(environment, "plugins", "--json").returncode == 0

    removed = _gent(environment, "uninstall", "-y", "shout")  # the plugin's name
    assert removed.returncode == 0, removed.stderr
    assert "shout is a plugin of gent-shout: removing gent-shout" in removed.stdout
    assert "Removed plugin shout (gent-shout 0.0.1)" in removed.stdout
    listed = _gent(environment, "plugins", "--json")
    assert [info["name"] for info in json.loads(listed.stdout)] == ["core"]
