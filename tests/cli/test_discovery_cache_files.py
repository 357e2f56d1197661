"""The files of the plugin discovery cache (``gent_core._plugins.cache``), in this process:
what is written where, and which old files a write removes.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from gent_core._plugins import cache

pytestmark = pytest.mark.skipif(
    sys.platform in ("win32", "darwin"), reason="the cache follows XDG_CACHE_HOME on other Unixes"
)


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("GENT_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(cache, "SETTLE_SECONDS", -3600.0)  # the test's files are fresh
    return tmp_path / "gent"


def test_a_value_is_recalled_until_a_file_it_depends_on_changes(
    cache_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    on_path = tmp_path / "on-path"
    on_path.mkdir()
    monkeypatch.syspath_prepend(str(on_path))
    cache.remember("topic", {"answer": [1, "two"]}, cache.started())
    assert cache.recall("topic") == {"answer": [1, "two"]}
    assert cache.recall("other") is None
    (on_path / "new-1.0.dist-info").mkdir()  # an install beside it
    os.utime(on_path, ns=(1, 1))  # a change of time stamp, whatever the clock's tick
    assert cache.recall("topic") is None


def test_writing_removes_only_old_files_of_its_topic(cache_home: Path) -> None:
    cache_home.mkdir(parents=True)
    month_ago = time.time() - 31 * 86400
    old = cache_home / "topic-0badc0de.json"
    other_topic = cache_home / "commands-0badc0de.json"
    not_ours = cache_home / "topic-notes.txt"
    recent = cache_home / "topic-12345678.json"
    for path in (old, other_topic, not_ours, recent):
        path.write_text("{}")
    for path in (old, other_topic, not_ours):
        os.utime(path, (month_ago, month_ago))
    (cache_home / "models").mkdir()  # other things live in the user's cache directory too

    cache.remember("topic", [], cache.started())
    left = sorted(path.name for path in cache_home.iterdir())
    written = [name for name in left if name.startswith("topic-") and name.endswith(".json")]
    assert "topic-0badc0de.json" not in left
    assert {"commands-0badc0de.json", "topic-notes.txt", "topic-12345678.json", "models"} <= set(
        left
    )
    assert len(written) == 2  # the recent one and the one just written
    assert cache.recall("topic") == []


def test_nothing_is_written_when_a_file_changed_after_the_computation_began(
    cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "SETTLE_SECONDS", 2.0)
    # Every loaded module's file is older than an hour from now: a "computation" that began
    # an hour from now sees none of them change...
    later = cache.started() + 3600 * 10**9
    cache.remember("topic", "value", later)
    assert cache.recall("topic") == "value"
    # ...one that began at the epoch sees them all changed after it: nothing is written.
    cache.remember("other", "value", 0)
    assert cache.recall("other") is None


@pytest.mark.parametrize(
    ("value", "used"),
    [
        *[("1", False), ("true", False), (" TRUE ", False), ("yes", False), ("on", False)],
        *[("", True), ("0", True), ("false", True), ("no", True), ("off", True)],
    ],
)
def test_gent_no_cache_turns_the_cache_off(
    cache_home: Path, monkeypatch: pytest.MonkeyPatch, value: str, used: bool
) -> None:
    cache.remember("topic", "value", cache.started())
    monkeypatch.setenv("GENT_NO_CACHE", value)
    assert cache.enabled() is used
    assert cache.recall("topic") == ("value" if used else None)
