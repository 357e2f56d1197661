"""The plugin discovery cache of the command line (``gent_core._plugins.cache``): ``gent
--help`` and ``gent plugins`` answer from it only while nothing it was computed from changed.

Each test runs the real ``gent`` (``python -m gent_core``) in subprocesses with the cache on
(the test kit turns it off for the session) and its own cache directory. A plugin is
"installed" the way pip installs one: its package and a ``*.dist-info`` directory with
``entry_points.txt`` are written into a directory on ``sys.path`` (``PYTHONPATH``), and
"uninstalled" by removing them. The cache refuses to remember a state whose files changed in
the last seconds (their time stamps could not prove a later change), so each step dates the
files it wrote in the past, one step after the other, as time passing would.

The tests that install nothing share one site per module (``warmed``): its cache is filled
once, by the first ``gent --help`` and ``gent plugins``, and each test starts from those two
files as they were written (``warm_site``), so it pays only for the commands it checks.

What is checked is what the commands list, never how fast they are.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

PLUGIN = """
from gent_core import Command, hookimpl


@hookimpl
def gent_register_commands():
    return {{"{command}": Command("{package}.cli", "{help}")}}
"""


class Site:
    """A directory on ``sys.path`` to install throwaway plugins into, and the environment
    that runs ``gent`` with it and a private cache directory.
    """

    def __init__(self, root: Path) -> None:
        self.path = root / "site"
        self.path.mkdir()
        self.cache = root / "cache"
        self.workdir = root / "work"
        self.workdir.mkdir()
        self._step = 0
        self._changed_after = 0.0
        self.settle()

    def environment(self, **extra: str) -> dict[str, str]:
        environ = {k: v for k, v in os.environ.items() if not k.startswith("GENT_")}
        environ["GENT_HOME"] = str(self.cache.parent / "home")
        # the site first; then what the suite runs with (a worktree's code in development)
        inherited = os.environ.get("PYTHONPATH")
        environ["PYTHONPATH"] = os.pathsep.join(
            [str(self.path), *([inherited] if inherited else [])]
        )
        environ["XDG_CACHE_HOME"] = str(self.cache)
        environ["COLUMNS"] = "200"
        environ.update(extra)
        return environ

    def gent(self, *arguments: str, **extra: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [sys.executable, "-m", "gent_core", *arguments],
            capture_output=True,
            text=True,
            env=self.environment(**extra),
            cwd=self.workdir,
            timeout=300,
            check=False,
        )
        assert "Traceback" not in done.stderr, done.stderr
        return done

    def install(self, distribution: str, command: str, help_text: str, source: str = "") -> None:
        """Install a plugin supplying ``command`` (as pip would: package and dist-info)."""
        package = distribution.replace("-", "_")
        (self.path / package).mkdir()
        (self.path / package / "__init__.py").write_text(
            textwrap.dedent(source) if source else self.plugin_source(package, command, help_text)
        )
        info = self.path / f"{package}-0.0.1.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {distribution}\nVersion: 0.0.1\n"
        )
        name = package.removeprefix("gent_")  # the entry point's (the plugin's) name
        (info / "entry_points.txt").write_text(f"[gent]\n{name} = {package}\n")
        self.settle()

    @staticmethod
    def plugin_source(package: str, command: str, help_text: str) -> str:
        return PLUGIN.format(package=package, command=command, help=help_text)

    def uninstall(self, distribution: str) -> None:
        package = distribution.replace("-", "_")
        shutil.rmtree(self.path / package)
        shutil.rmtree(self.path / f"{package}-0.0.1.dist-info")
        self.settle()

    def edit(self, distribution: str, source: str) -> None:
        """Rewrite an installed plugin's module in place (an editable install's edit)."""
        package = distribution.replace("-", "_")
        (self.path / package / "__init__.py").write_text(source)
        self.settle()

    def settle(self) -> None:
        """Date what changed since the previous step in the past (later than the previous
        step's date), as time passing would; what did not change keeps its date (a file
        rewritten in place leaves its directory's date alone).
        """
        self._step += 1
        moment = time.time() - 10_000 + 100 * self._step
        for root in (self.path, self.workdir):  # both are on sys.path
            for directory, _, files in os.walk(root):
                for path in [Path(directory) / name for name in files] + [Path(directory)]:
                    if path.stat().st_mtime >= self._changed_after:
                        os.utime(path, (moment, moment))
        self._changed_after = time.time() - 1

    def cache_files(self) -> list[Path]:
        return sorted((self.cache / "gent").glob("*.json"))


@pytest.fixture
def site(tmp_path: Path) -> Site:
    return Site(tmp_path)


@dataclass(frozen=True)
class Warmed:
    """A site whose cache holds what ``gent --help`` and ``gent plugins`` found (computed
    once), those answers, and the two cache files as written."""

    site: Site
    commands: dict[str, str]
    plugins: dict[str, dict[str, object]]
    files: dict[Path, bytes]

    def restore(self) -> Site:
        """Put the cache back as it was written: the two files, nothing else."""
        for path in (self.site.cache / "gent").iterdir():
            if path not in self.files:
                path.unlink()
        for path, data in self.files.items():
            path.write_bytes(data)
        return self.site


@pytest.fixture(scope="module")
def warmed(tmp_path_factory: pytest.TempPathFactory) -> Warmed:
    site = Site(tmp_path_factory.mktemp("warm"))
    commands = _commands(site.gent("--help").stdout)
    plugins = _plugins(site)
    assert "run" in commands and "xml" in plugins
    files = {path: path.read_bytes() for path in site.cache_files()}
    assert [path.name.split("-")[0] for path in files] == ["commands", "plugins"]
    return Warmed(site, commands, plugins, files)


@pytest.fixture
def warm_site(warmed: Warmed) -> Site:
    """The module's site, its cache holding the answers of one ``gent --help`` and one
    ``gent plugins`` (whatever the previous test did to it)."""
    return warmed.restore()


def _commands(help_text: str) -> dict[str, str]:
    """The commands ``gent --help`` lists (the lines under ``COMMAND``), with their one line
    of help.
    """
    lines = help_text.splitlines()
    start = lines.index("  COMMAND") + 1
    listed: dict[str, str] = {}
    for line in lines[start:]:
        if not line.startswith("    "):
            break
        name, _, summary = line.strip().partition(" ")
        if line.startswith("     "):  # a summary's continuation
            continue
        listed[name] = summary.strip()
    return listed


def _plugins(site: Site, **extra: str) -> dict[str, dict[str, object]]:
    done = site.gent("plugins", "--json", **extra)
    assert done.returncode == 0, done.stderr
    return {info["name"]: info for info in json.loads(done.stdout)}


def test_an_installed_plugin_is_listed_at_once_and_gone_once_uninstalled(site: Site) -> None:
    before = site.gent("--help")
    assert before.returncode == 0, before.stderr
    assert "run" in _commands(before.stdout)
    assert "shout" not in _commands(before.stdout)
    assert "cachetest" not in _plugins(site)
    assert [path.name.split("-")[0] for path in site.cache_files()] == ["commands", "plugins"]
    assert _commands(site.gent("--help").stdout) == _commands(before.stdout)  # from the cache

    site.install("gent-cachetest", "shout", "shout the answer")
    assert _commands(site.gent("--help").stdout)["shout"] == "shout the answer"
    listed = _plugins(site)
    assert listed["cachetest"]["status"] == "loaded"
    assert listed["cachetest"]["components"] == {"command": ["shout"]}
    assert _commands(site.gent("--help").stdout)["shout"] == "shout the answer"  # remembered

    # An editable install: the plugin's own module is edited, no metadata changes.
    site.edit("gent-cachetest", Site.plugin_source("gent_cachetest", "whisper", "say it low"))
    commands = _commands(site.gent("--help").stdout)
    assert "shout" not in commands
    assert commands["whisper"] == "say it low"
    assert _plugins(site)["cachetest"]["components"] == {"command": ["whisper"]}

    site.uninstall("gent-cachetest")
    assert "whisper" not in _commands(site.gent("--help").stdout)
    assert "cachetest" not in _plugins(site)
    assert _commands(site.gent("--help").stdout) == _commands(before.stdout)


def test_a_second_distribution_beside_a_remembered_one_is_seen(site: Site) -> None:
    site.install("gent-cachetest-one", "first", "the first")
    assert "first" in _commands(site.gent("--help").stdout)
    assert "cachetest_one" in _plugins(site)

    site.install("gent-cachetest-two", "second", "the second")
    commands = _commands(site.gent("--help").stdout)
    assert (commands["first"], commands["second"]) == ("the first", "the second")
    assert {"cachetest_one", "cachetest_two"} <= set(_plugins(site))


def test_a_plugin_that_failed_is_not_remembered_as_failed(site: Site) -> None:
    site.install("gent-cachetest", "mend", "", source="raise RuntimeError('broken on import')\n")
    assert _plugins(site)["cachetest"]["status"] == "failed"
    assert "mend" not in _commands(site.gent("--help").stdout)
    assert not site.cache_files()  # a failure is found again each time, never remembered

    # Fixed in place: a module that failed to import was never loaded, so only not
    # remembering the failure lets the fix be seen.
    site.edit("gent-cachetest", Site.plugin_source("gent_cachetest", "mend", "fixed"))
    assert _plugins(site)["cachetest"]["status"] == "loaded"
    assert _commands(site.gent("--help").stdout)["mend"] == "fixed"


def _poison(site: Site) -> None:
    """Change the remembered answers (keeping their fingerprints) where a cache may differ
    from what discovery finds without adding anything: a command's help and a plugin's
    version.
    """
    for path in site.cache_files():
        stored = json.loads(path.read_text())
        if path.name.startswith("commands"):
            for entry in stored["value"]:
                if entry[0] == "eval":
                    entry[3] = "only in the cache"
        else:
            for info in stored["value"]:
                if info["name"] == "xml":
                    info["version"] = "9.9.9-cached"
        path.write_text(json.dumps(stored))


def test_the_cache_is_used_unless_gent_no_cache_is_set(warm_site: Site) -> None:
    site = warm_site
    _poison(site)
    # The poisoned answers are shown: the commands read the cache...
    assert _commands(site.gent("--help").stdout)["eval"] == "only in the cache"
    assert _plugins(site)["xml"]["version"] == "9.9.9-cached"
    # ...and not when it is off (every spelling of "off": test_discovery_cache_files.py).
    assert _commands(site.gent("--help", GENT_NO_CACHE="1").stdout)["eval"] != ("only in the cache")
    assert _plugins(site, GENT_NO_CACHE="true")["xml"]["version"] != "9.9.9-cached"


def test_a_cache_for_other_plugin_selections_is_not_used(warm_site: Site) -> None:
    _poison(warm_site)
    commands = _commands(warm_site.gent("--help", GENT_DISABLE_PLUGINS="xml").stdout)
    assert commands["eval"] != "only in the cache"


def test_a_planted_module_is_never_imported(warm_site: Site) -> None:
    """Issue 24: a cache entry whose command names ``this`` (or a module of a plugin that is
    not installed) is not used, however fresh its fingerprint: ``gent eval`` imports
    gent-eval's own command module, never the planted one.
    """
    site = warm_site
    (path,) = [path for path in site.cache_files() if path.name.startswith("commands")]
    stored = json.loads(path.read_text())
    for entry in stored["value"]:
        if entry[0] == "eval":
            entry[2] = "this"
    stored["value"].append(["ghost", "ghostly", "this", "only in the cache"])
    stored["modules"] = [[str(site.path / "missing.py"), None, None]]
    path.write_text(json.dumps(stored))
    done = site.gent("eval", "--help")
    assert done.returncode == 0, done.stderr
    assert "Beautiful is better than ugly" not in done.stdout + done.stderr
    assert "--repeat" in done.stdout
    assert "ghost" not in _commands(site.gent("--help").stdout)


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        "",
        "[1, 2, 3]",
        '{"key": null, "files": [], "value": []}',
        "\x00\xff binary",
    ],
)
def test_a_corrupt_cache_file_is_ignored(warmed: Warmed, warm_site: Site, content: str) -> None:
    for path in warm_site.cache_files():
        path.write_text(content, encoding="utf-8", errors="surrogateescape")
    assert _commands(warm_site.gent("--help").stdout) == warmed.commands
    assert _plugins(warm_site) == warmed.plugins


def test_a_remembered_value_of_the_wrong_shape_is_ignored(warmed: Warmed, warm_site: Site) -> None:
    for path in warm_site.cache_files():
        stored = json.loads(path.read_text())
        stored["value"] = [{"name": 3}] if path.name.startswith("plugins") else [["run"]]
        path.write_text(json.dumps(stored))
    assert _commands(warm_site.gent("--help").stdout) == warmed.commands
    assert _plugins(warm_site) == warmed.plugins


def test_an_unwritable_cache_directory_is_no_error(
    warmed: Warmed, warm_site: Site, tmp_path: Path
) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the cache directory would be")
    done = warm_site.gent("--help", XDG_CACHE_HOME=str(blocker))
    assert done.returncode == 0
    assert done.stderr == ""
    assert _commands(done.stdout) == warmed.commands
    listed = warm_site.gent("plugins", XDG_CACHE_HOME=str(blocker))
    assert listed.returncode == 0
    assert listed.stderr == ""
    assert "core" in listed.stdout
