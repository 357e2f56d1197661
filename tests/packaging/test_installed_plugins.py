"""Entry-point discovery with real installed distributions in a fresh virtual environment."""

from __future__ import annotations

import json
import os
import subprocess
import venv
from pathlib import Path

import pytest

from gent_core.testing._distributions import write_plugin_project

REPO = Path(__file__).resolve().parents[2]

GOOD_PLUGIN = """
from gent_core import hookimpl


class ThrowawayFormat:
    pass


@hookimpl
def gent_register_formats():
    return {"throwaway": ThrowawayFormat}
"""

BAD_PLUGIN = """
raise RuntimeError("throwaway plugin exploded on import")
"""


def _bin(env: Path, name: str) -> Path:
    return env / ("Scripts" if os.name == "nt" else "bin") / name


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("plugins")
    good = write_plugin_project(root, "gent-throwaway-good", GOOD_PLUGIN, entry_point="good")
    bad = write_plugin_project(root, "gent-throwaway-bad", BAD_PLUGIN, entry_point="bad")
    env = root / "venv"
    venv.EnvBuilder(with_pip=True).create(env)
    subprocess.run(
        [str(_bin(env, "python")), "-m", "pip", "install", "-q", str(REPO), str(good), str(bad)],
        check=True,
        timeout=600,
    )
    return env


def gent(env: Path, *args: str, **extra_env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("GENT_")}
    environ.update(extra_env)
    return subprocess.run(
        [str(_bin(env, "gent")), *args], capture_output=True, text=True, env=environ, timeout=60
    )


@pytest.mark.slow
def test_version_in_a_fresh_environment(plugin_env: Path) -> None:
    from gent_core import __version__

    result = gent(plugin_env, "--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"gent {__version__}"


@pytest.mark.slow
def test_installed_plugin_is_discovered_and_broken_one_reported(plugin_env: Path) -> None:
    result = gent(plugin_env, "plugins", "--json")
    assert result.returncode == 0, result.stderr
    listed = {info["name"]: info for info in json.loads(result.stdout)}
    assert set(listed) == {"core", "good", "bad"}
    good = listed["good"]
    assert good["distribution"] == "gent-throwaway-good"
    assert good["version"] == "0.0.1"
    assert good["status"] == "loaded"
    assert good["components"] == {"format": ["throwaway"]}
    bad = listed["bad"]
    assert bad["distribution"] == "gent-throwaway-bad"
    assert bad["status"] == "failed"
    assert "RuntimeError: throwaway plugin exploded on import" in bad["error"]
    assert listed["core"]["status"] == "loaded"


@pytest.mark.slow
def test_table_output_warns_about_the_broken_plugin(plugin_env: Path) -> None:
    result = gent(plugin_env, "plugins")
    assert result.returncode == 0
    assert "formats: throwaway" in result.stdout
    assert "1 plugin(s) failed to load: bad" in result.stderr


@pytest.mark.slow
def test_strict_mode_fails_naming_the_broken_plugin(plugin_env: Path) -> None:
    result = gent(plugin_env, "plugins", GENT_STRICT_PLUGINS="1")
    assert result.returncode == 1
    assert "plugin 'bad' from distribution 'gent-throwaway-bad' failed to load" in result.stderr
    assert "throwaway plugin exploded on import" in result.stderr


@pytest.mark.slow
def test_deny_list_hides_the_broken_plugin_even_in_strict_mode(plugin_env: Path) -> None:
    result = gent(
        plugin_env, "plugins", "--json", GENT_STRICT_PLUGINS="1", GENT_DISABLE_PLUGINS="bad"
    )
    assert result.returncode == 0, result.stderr
    listed = {info["name"]: info["status"] for info in json.loads(result.stdout)}
    assert listed == {"core": "loaded", "good": "loaded", "bad": "disabled"}


@pytest.mark.slow
def test_allow_list_loads_only_the_named_plugin(plugin_env: Path) -> None:
    result = gent(plugin_env, "plugins", "--json", GENT_PLUGINS="good")
    listed = {info["name"]: info["status"] for info in json.loads(result.stdout)}
    assert listed == {"core": "disabled", "good": "loaded", "bad": "disabled"}
