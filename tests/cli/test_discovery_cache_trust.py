"""The plugin discovery cache trusts nothing another user could have written (issue 24).

Its directory must be the user's own, its files regular files of that user of a bounded
size, its fingerprint is computed rather than read from the file, a write never follows a
planted link, and a remembered value can never make gent import a module the installed
entry points do not declare.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gent_core._cli import commands as commands_module
from gent_core._plugins import cache

pytestmark = pytest.mark.skipif(
    sys.platform in ("win32", "darwin"), reason="the cache follows XDG_CACHE_HOME on other Unixes"
)

AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("GENT_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(cache, "SETTLE_SECONDS", -3600.0)  # the test's files are fresh
    return tmp_path / "xdg" / "gent"


def _target(topic: str) -> Path:
    return Path(cache._file_for(cache._key(topic)))


def _plant(topic: str, value: Any, **fields: Any) -> Path:
    """Write a cache file as someone who can write the directory would: the right key and
    the installed state as it is (both can be computed by anyone on the machine).
    """
    target = _target(topic)
    target.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(target.parent, 0o700)
    stored = {
        "key": cache._key(topic),
        "installed": cache._installed_stamps(),
        "modules": [],
        "value": value,
        **fields,
    }
    target.write_text(json.dumps(stored))
    os.chmod(target, 0o600)
    return target


def test_a_value_remembered_by_gent_is_recalled(cache_home: Path) -> None:
    cache.remember("topic", ["value"], cache.started())
    assert cache.recall("topic") == ["value"]
    target = _target("topic")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert stat.S_IMODE(target.parent.stat().st_mode) == 0o700


def test_a_recorded_missing_path_is_not_a_fingerprint(cache_home: Path) -> None:
    """The instance: an entry listing one missing path was always fresh."""
    missing = str(cache_home / "no-such-file")
    _plant("topic", "planted", modules=[[missing, None, None]], installed=[[missing, None, None]])
    assert cache.recall("topic") is None
    _plant("topic", "planted", modules=[[missing, None, None]])  # installed state right
    assert cache.recall("topic") is None


def test_an_installed_state_that_is_not_the_one_computed_is_stale(cache_home: Path) -> None:
    """A variant: a file that leaves out one ``sys.path`` entry's stamps (or lists one more)
    is stale, however true the stamps it does list.
    """
    installed = cache._installed_stamps()
    assert len(installed) > 1
    _plant("topic", "planted", installed=installed[1:])
    assert cache.recall("topic") is None
    _plant("topic", "planted", installed=[*installed, installed[0]])
    assert cache.recall("topic") is None
    _plant("topic", "planted")  # the same file with the state computed: fresh
    assert cache.recall("topic") == "planted"


def test_a_planted_command_module_is_never_imported(
    cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The instance: ``"module": "this"`` printed the Zen of Python. A fresh file naming a
    module outside the declaring plugin's package is not used: the commands are found again.
    """
    monkeypatch.setattr(commands_module, "process_manager_set", lambda: False)
    declared = cache.declared_plugins()
    assert "gent_eval.plugin" in declared["eval"]
    _plant(commands_module.CACHE_TOPIC, [["eval", "eval", "this", "planted"]])
    sys.modules.pop("this", None)
    entries = commands_module._plugin_entries()
    assert "this" not in sys.modules
    assert [e.module for e in entries if e.name == "eval"] == ["gent_eval.cli"]
    assert all(e.help != "planted" for e in entries)


def test_a_command_of_an_undeclared_plugin_is_not_added(cache_home: Path) -> None:
    """A variant: a command of a plugin no entry point declares, or a declared plugin's
    command in another package, makes the whole remembered value unusable.
    """
    declared = {"eval": frozenset({"gent_eval.plugin"}), "core": frozenset({"gent_core._builtin"})}
    good = ["eval", "eval", "gent_eval.cli", "evaluate"]
    assert commands_module._entries_from_cache([good], lambda: declared) is not None
    for planted in (
        ["ghost", "ghostly", "ghostly.cli", "not declared"],
        ["eval", "eval", "os", "a module outside gent_eval"],
        ["eval", "eval", "gent_evil.cli", "a package that only starts alike"],
        ["eval", "core", "gent_eval.cli", "another plugin's package"],
    ):
        assert commands_module._entries_from_cache([good, planted], lambda: declared) is None
    assert cache.declares(declared, "eval", "gent_eval")
    assert not cache.declares(declared, "eval", "this")


def test_a_listing_of_undeclared_plugins_is_not_shown(cache_home: Path) -> None:
    from gent_core._cli import plugins as plugins_module

    listing = plugins_module._listing()  # found and remembered
    assert cache.recall(plugins_module.CACHE_TOPIC) == listing
    ghost = {**listing[0], "name": "ghostly", "module": "nowhere"}
    _plant(plugins_module.CACHE_TOPIC, [*listing, ghost])
    assert "ghostly" not in [info["name"] for info in plugins_module._listing()]


def test_a_planted_link_at_the_old_temporary_name_is_not_followed(
    cache_home: Path, tmp_path: Path
) -> None:
    """The instance: ``<file>.<pid>.tmp`` was opened with ``open("w")``, following a link."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    target = _target("topic")
    target.parent.mkdir(parents=True, mode=0o700)
    Path(f"{target}.{os.getpid()}.tmp").symlink_to(victim)
    cache.remember("topic", "value", cache.started())
    assert victim.read_text() == "precious"
    assert cache.recall("topic") == "value"


def test_a_link_at_the_cache_file_is_replaced_not_followed(
    cache_home: Path, tmp_path: Path
) -> None:
    """A variant: a link planted at the cache file's own name is neither read nor written
    through.
    """
    victim = tmp_path / "victim.json"
    cache.remember("topic", "theirs", cache.started())
    target = _target("topic")
    os.replace(target, victim)
    target.symlink_to(victim)
    assert cache.recall("topic") is None  # a link is not read, even to a valid cache file
    cache.remember("topic", "ours", cache.started())
    assert json.loads(victim.read_text())["value"] == "theirs"
    assert not target.is_symlink()
    assert cache.recall("topic") == "ours"


_PLANT_AND_RECALL = """
import os, sys
from pathlib import Path
from gent_core._plugins import cache
target = Path(cache._file_for(cache._key("topic")))
target.parent.mkdir(parents=True, mode=0o700)
if sys.argv[1] == "fifo":
    os.mkfifo(target, 0o600)
else:
    target.symlink_to(sys.argv[1])
opened, read = set(), [0]
real_open, real_read = os.open, os.read
def counting_open(path, *args, **kwargs):
    descriptor = real_open(path, *args, **kwargs)
    if os.fspath(path) == os.fspath(target):
        opened.add(descriptor)
    return descriptor
def counting_read(descriptor, size):
    data = real_read(descriptor, size)
    if descriptor in opened:
        read[0] += len(data)
    return data
os.open, os.read = counting_open, counting_read
print(cache.recall("topic"))
print(read[0], file=sys.stderr)
"""


def _recall_in_a_process(cache_home: Path, planted: str) -> subprocess.CompletedProcess[str]:
    """Plant ``planted`` at the cache file's path and recall, in a process of its own: a
    cache that blocks on a FIFO, or reads ``/dev/zero`` until memory runs out (capped at
    1 GiB here), fails the test instead of stopping the suite.
    """

    def cap_memory() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    return subprocess.run(
        [sys.executable, "-c", _PLANT_AND_RECALL, planted],
        env={**os.environ, "XDG_CACHE_HOME": str(cache_home.parent)},
        capture_output=True,
        text=True,
        timeout=120,  # a guard only: the cache opens without blocking and returns at once
        preexec_fn=cap_memory,
        check=False,
    )


def test_a_fifo_at_the_cache_path_is_ignored_without_blocking(cache_home: Path) -> None:
    """The instance: a FIFO at the cache path hung every command."""
    done = _recall_in_a_process(cache_home, "fifo")
    assert (done.returncode, done.stdout) == (0, "None\n"), done.stderr


def test_a_link_to_dev_zero_is_not_read(cache_home: Path) -> None:
    """The instance: a link to ``/dev/zero`` was read until MemoryError (caught, as every
    error of the cache is: what shows it is the number of bytes read from the cache path,
    counted by the child process's wrapped ``os.read``).
    """
    done = _recall_in_a_process(cache_home, "/dev/zero")
    assert (done.returncode, done.stdout) == (0, "None\n"), done.stderr
    assert int(done.stderr.split()[-1]) == 0  # not one byte read through the link


def test_a_cache_file_over_the_size_limit_is_not_read(
    cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A variant: a regular file of the user's, but larger than the limit."""
    cache.remember("topic", "x" * 1000, cache.started())
    assert cache.recall("topic") == "x" * 1000
    monkeypatch.setattr(cache, "MAX_FILE_SIZE", 999)
    assert cache.recall("topic") is None


def _foreign(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``path`` someone else's: chown as root, else pretend to be another user."""
    if AS_ROOT:
        os.chown(path, 4242, -1)
    else:  # pragma: no cover - the suite runs as root in CI
        euid = os.geteuid() + 1
        monkeypatch.setattr(os, "geteuid", lambda: euid)


def test_a_cache_directory_owned_by_someone_else_is_not_used(
    cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache.remember("topic", "value", cache.started())
    assert cache.recall("topic") == "value"
    before = sorted(p.name for p in cache_home.iterdir())
    _foreign(cache_home, monkeypatch)
    assert cache.recall("topic") is None
    cache.remember("other", "value", cache.started())
    assert sorted(p.name for p in cache_home.iterdir()) == before  # nothing written


def test_a_cache_directory_others_may_write_is_not_used(cache_home: Path) -> None:
    cache.remember("topic", "value", cache.started())
    os.chmod(cache_home, 0o777)
    assert cache.recall("topic") is None
    os.chmod(cache_home, 0o700)
    assert cache.recall("topic") == "value"


def test_a_cache_file_of_someone_else_or_writable_by_others_is_not_read(
    cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A variant: the directory is the user's, the file in it is not theirs alone."""
    cache.remember("topic", "value", cache.started())
    target = _target("topic")
    os.chmod(target, 0o666)
    assert cache.recall("topic") is None
    os.chmod(target, 0o600)
    assert cache.recall("topic") == "value"
    _foreign(target, monkeypatch)
    assert cache.recall("topic") is None


def test_a_cache_directory_that_is_a_link_is_not_used(cache_home: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    cache_home.parent.mkdir()
    cache_home.symlink_to(elsewhere)
    cache.remember("topic", "value", cache.started())
    assert list(elsewhere.iterdir()) == []
    assert cache.recall("topic") is None
