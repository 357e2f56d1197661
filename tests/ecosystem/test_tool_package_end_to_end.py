"""Acceptance: a third-party tool package, from ``gent new-plugin`` to an agent using it.

Into a fresh virtual environment go wheels, never editable installs: gent-core, gent-template
(which supplies ``gent new-plugin``) and the shipped plugins the package needs (built from this
repository), then the package that the *installed* ``gent new-plugin`` generates (so the
template shipped inside the gent-template wheel is the one used), built into a wheel of its
own. Then, with only what is installed there: the package's
own tests pass, the tool is listed by ``gent tools --json``, runs with ``gent call``, and an
agent configured by plugin name (scripted model) calls it and answers.
"""

from __future__ import annotations

import json
import os
import subprocess
import venv
from pathlib import Path

import pytest

from gent_core.testing._distributions import build_wheel

REPO = Path(__file__).resolve().parents[2]
SHIPPED = [
    "gent-template",
    "gent-xml",
    "gent-json",
    "gent-markdown",
    "gent-yaml",
    "gent-tools-basic",
]

CACHES = {"__pycache__", ".ruff_cache", ".mypy_cache", ".pytest_cache"}

pytestmark = pytest.mark.slow


def _bin(environment: Path, name: str) -> Path:
    return environment / ("Scripts" if os.name == "nt" else "bin") / name


def _run(command: list[str | Path], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    environ = {key: value for key, value in os.environ.items() if not key.startswith("GENT_")}
    return subprocess.run(
        [str(part) for part in command],
        capture_output=True,
        text=True,
        env=environ,
        timeout=900,
        cwd=cwd,
    )


class Installed:
    """The fresh environment and the generated package."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.environment = root / "venv"
        self.wheels = root / "wheels"
        self.wheels.mkdir()
        self.package = root / "work" / "gent-acme-words"

    def gent(
        self, *arguments: str | Path, cwd: Path | None = None
    ) -> subprocess.CompletedProcess[str]:
        return _run([_bin(self.environment, "gent"), *arguments], cwd=cwd or self.root)

    def python(
        self, *arguments: str | Path, cwd: Path | None = None
    ) -> subprocess.CompletedProcess[str]:
        return _run([_bin(self.environment, "python"), *arguments], cwd=cwd or self.root)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    setup = Installed(tmp_path_factory.mktemp("tool-package"))
    venv.EnvBuilder(with_pip=True).create(setup.environment)
    wheels = [build_wheel(REPO, setup.wheels)]
    wheels += [build_wheel(REPO / "plugins" / name, setup.wheels) for name in SHIPPED]
    result = setup.python("-m", "pip", "install", "-q", *wheels, "pytest>=8")
    assert result.returncode == 0, result.stderr
    (setup.root / "work").mkdir()
    made = setup.gent("new-plugin", "acme-words", "--kind", "tool", "--dir", setup.root / "work")
    assert made.returncode == 0, made.stderr
    package_wheel = build_wheel(setup.package, setup.wheels)
    result = setup.python("-m", "pip", "install", "-q", package_wheel)
    assert result.returncode == 0, result.stderr
    return setup


def test_nothing_is_installed_editable_and_the_template_came_from_thebuild_wheel(
    installed: Installed,
) -> None:
    listed = installed.python("-m", "pip", "list", "--format", "json", "--editable")
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout) == []
    located = installed.python(
        "-c", "import gent_template.scaffold as s; print(s.template_directory())"
    )
    packaged = Path(located.stdout.strip())
    assert packaged.parts[-2:] == ("gent_template", "template")
    assert installed.environment in packaged.parents
    # The wheel's copy is the repository's template, file for file.
    repository = REPO / "plugins" / "gent-template" / "_template"

    def files(folder: Path) -> dict[str, bytes]:
        return {
            str(path.relative_to(folder)): path.read_bytes()
            for path in folder.rglob("*")
            if path.is_file() and not CACHES.intersection(path.parts)
        }

    assert files(packaged) == files(repository)


def test_the_generated_package_tests_pass_in_the_fresh_environment(installed: Installed) -> None:
    result = installed.python(
        "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", cwd=installed.package
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "5 passed" in result.stdout


def test_the_plugin_is_discovered_and_the_tool_is_listed(installed: Installed) -> None:
    plugins = installed.gent("plugins", "--json")
    assert plugins.returncode == 0, plugins.stderr
    by_name = {info["name"]: info for info in json.loads(plugins.stdout)}
    assert by_name["acme_words"]["distribution"] == "gent-acme-words"
    assert by_name["acme_words"]["status"] == "loaded"
    assert by_name["acme_words"]["components"] == {"tool": ["acme_words"]}
    tools = installed.gent("tools", "--json")
    assert tools.returncode == 0, tools.stderr
    by_tool = {tool["name"]: tool for tool in json.loads(tools.stdout)}
    tool = by_tool["acme_words"]
    assert tool["plugin"] == "acme_words"
    assert tool["distribution"] == "gent-acme-words 0.1.0"
    assert tool["description"] == "Repeat a text and count its characters."
    assert tool["parameters"]["required"] == ["text"]
    assert "calculator" in by_tool  # the shipped tools are there too


def test_the_tool_runs_with_gent_call(installed: Installed) -> None:
    called = installed.gent("call", "acme_words", "--arg", "text=hi", "--arg", "times=3", "--json")
    assert called.returncode == 0, called.stderr
    assert json.loads(called.stdout)["output"] == {"text": "hi hi hi", "characters": 8}
    refused = installed.gent("call", "acme_words", '{"text": "hi", "times": 99}')
    assert refused.returncode == 1
    assert "Invalid arguments for tool 'acme_words'" in refused.stderr


def test_an_agent_configured_by_plugin_name_calls_the_tool_and_answers(
    installed: Installed,
) -> None:
    config = installed.root / "agent.yaml"
    config.write_text(
        "model:\n"
        "  name: scripted\n"
        "  outputs:\n"
        '    - \'<thinking>I repeat it.</thinking><action>{"tool": "acme_words", '
        '"args": {"text": "echo", "times": 2}}</action>\'\n'
        "    - '<answer>echo echo (9 characters)</answer>'\n"
        "format: xml\ntoolchain: json\ntools: [acme_words]\n"
    )
    ran = installed.gent("run", config, "Repeat echo twice.", "--json")
    assert ran.returncode == 0, ran.stderr
    result = json.loads(ran.stdout)
    assert result["answer"] == "echo echo (9 characters)"
    [call] = result["steps"][0]["calls"]
    assert call["tool"] == "acme_words"
    assert call["status"] == "success"
    assert call["output"] == {"text": "echo echo", "characters": 9}
    prompt = installed.gent("describe", config)
    assert "acme_words(text: string" in prompt.stdout
