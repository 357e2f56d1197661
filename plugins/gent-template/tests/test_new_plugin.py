"""``gent new-plugin``: packages rendered from the plugin template, whose tests pass as
generated, for every kind."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from gent_template.scaffold import KINDS, plugin_names, render_plugin, template_directory

from gent_core.testing import run_cli as main

PACKAGE = Path(__file__).resolve().parents[1]


def files_of(folder: Path) -> list[str]:
    return sorted(
        str(path.relative_to(folder))
        for path in folder.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    )


@pytest.mark.parametrize(
    ("name", "plugin", "distribution", "package", "stem"),
    [
        ("weather", "weather", "gent-weather", "gent_weather", "Weather"),
        ("my-tools", "my_tools", "gent-my-tools", "gent_my_tools", "MyTools"),
        ("gent-my_tools2", "my_tools2", "gent-my-tools2", "gent_my_tools2", "MyTools2"),
    ],
)
def test_names(name: str, plugin: str, distribution: str, package: str, stem: str) -> None:
    names = plugin_names(name)
    assert (names.plugin, names.distribution, names.package, names.class_stem) == (
        plugin,
        distribution,
        package,
        stem,
    )


@pytest.mark.parametrize("name", ["", "Weather", "2fast", "my tools", "a--b", "class", "ü"])
def test_bad_names_are_refused_with_what_is_accepted(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new-plugin", name, "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gent new-plugin: error:")
    assert "plugin name" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("kind", KINDS)
def test_a_package_of_each_kind_is_complete_and_named(kind: str, tmp_path: Path) -> None:
    target = render_plugin("weather-station", kind, tmp_path)
    assert target == tmp_path / "gent-weather-station"
    assert files_of(target) == [
        "README.md",
        "gent_weather_station/__init__.py",
        "gent_weather_station/plugin.py",
        "gent_weather_station/py.typed",
        "pyproject.toml",
        "tests/test_weather_station_plugin.py",
    ]
    pyproject = (target / "pyproject.toml").read_text()
    assert 'name = "gent-weather-station"' in pyproject
    assert 'weather_station = "gent_weather_station.plugin"' in pyproject
    assert f"the weather_station {kind}" in pyproject
    readme = (target / "README.md").read_text()
    assert readme.startswith("# gent-weather-station\n")
    assert "## What it supplies" in readme
    for path in target.rglob("*"):
        if path.is_file():
            text = path.read_text()
            assert not re.search("template|TEMPLATE", text, re.IGNORECASE), path


def test_the_command_writes_the_package_and_says_what_next(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new-plugin", "weather", "--kind", "format", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"Wrote {tmp_path / 'gent-weather'} (format 'weather', package gent_weather)." in out
    assert "pip install -e '.[test]'" in out
    plugin = (tmp_path / "gent-weather" / "gent_weather" / "plugin.py").read_text()
    assert "class WeatherFormat(TextFormat):" in plugin
    assert main(["new-plugin", "weather", "--dir", str(tmp_path)]) == 2
    assert "exists already" in capsys.readouterr().err


def test_the_default_kind_is_a_tool(tmp_path: Path) -> None:
    assert main(["new-plugin", "clock", "--dir", str(tmp_path)]) == 0
    plugin = (tmp_path / "gent-clock" / "gent_clock" / "plugin.py").read_text()
    assert "def clock(text: str" in plugin


def test_the_wheel_ships_the_template_the_scaffold_reads() -> None:
    """gent-template's build copies _template to gent_template/template, the first place
    template_directory() looks; from a checkout (an editable install) it finds _template."""
    pyproject = (PACKAGE / "pyproject.toml").read_text()
    assert re.search(r'^"_template" = "gent_template/template"$', pyproject, re.M)
    assert template_directory() == PACKAGE / "_template"
    for kind in KINDS:
        assert files_of(template_directory() / "kinds" / kind) == [
            "README.md",
            "plugin.py",
            "test_plugin.py",
        ]


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One mypy cache for every kind's check: what the packages import (gent_core, pytest,
    pydantic...) is analysed once, not five times (about 12 CPU-s each). mypy still checks
    each package's own files afresh: the cache is keyed by each file's content."""
    return tmp_path_factory.mktemp("mypy-cache")


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_the_generated_tests_pass_and_the_code_is_typed_and_clean(
    kind: str, tmp_path: Path, mypy_cache: Path
) -> None:
    """The generated package's own tests pass exactly as generated (in a fresh folder, without
    installing it), and mypy --strict and ruff (with the package's settings) find nothing."""
    target = render_plugin("weather-station", kind, tmp_path)
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=target,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert " passed" in tests.stdout and "skipped" not in tests.stdout, tests.stdout
    mypy = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(mypy_cache)]
    typed = subprocess.run(
        [*mypy, "gent_weather_station", "tests"],
        cwd=target,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert typed.returncode == 0, typed.stdout + typed.stderr
    for command in (["check", "."], ["format", "--check", "."]):  # with the package's config
        linted = subprocess.run(
            [sys.executable, "-m", "ruff", *command],
            cwd=target,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert linted.returncode == 0, linted.stdout + linted.stderr
