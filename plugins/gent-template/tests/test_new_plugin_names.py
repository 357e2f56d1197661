"""``gent new-plugin`` refuses names that would replace gent itself or an installed package,
and names too long for a package, with what is accepted (issue 17, item 7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gent_core.testing import run_cli as main

MAX_NAME_LENGTH = 50  # the documented limit


def refused(name: str, folder: Path, capsys: pytest.CaptureFixture[str]) -> str:
    code = main(["new-plugin", name, "--dir", str(folder)])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.err.startswith("gent new-plugin: error:")
    assert "Traceback" not in captured.err
    assert list(folder.iterdir()) == []  # nothing written
    return captured.err


@pytest.mark.parametrize("name", ["gent-core", "core", "gent_core"])
def test_names_of_gent_itself_are_refused(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = refused(name, tmp_path, capsys)
    assert "'core' is reserved for gent itself (distribution gent-core, package gent_core)" in err
    assert "choose another" in err


@pytest.mark.parametrize(
    ("name", "taken"),
    [
        ("json", "the installed plugin 'json' (distribution gent-json) has that name"),
        ("gent-json", "the installed plugin 'json' (distribution gent-json) has that name"),
        ("basic", "the installed plugin 'basic' (distribution gent-tools-basic) has that name"),
        ("tools-basic", "the distribution gent-tools-basic is installed"),
    ],
)
def test_names_of_installed_plugins_and_distributions_are_refused(
    name: str, taken: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = refused(name, tmp_path, capsys)
    assert taken in err
    assert "the new package would replace it once installed" in err


def test_an_over_long_name_is_refused_saying_the_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = refused("a" * 300, tmp_path, capsys)
    assert "a plugin name of 300 characters is too long" in err
    assert f"at most {MAX_NAME_LENGTH} characters" in err
    assert "lowercase letters and digits" in err


def test_the_longest_name_is_accepted_and_one_more_is_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    longest = "w" * MAX_NAME_LENGTH
    assert main(["new-plugin", longest, "--dir", str(tmp_path)]) == 0
    assert (tmp_path / f"gent-{longest}" / "pyproject.toml").is_file()
    capsys.readouterr()
    other = tmp_path / "other"
    other.mkdir()
    err = refused("w" * (MAX_NAME_LENGTH + 1), other, capsys)
    assert f"{MAX_NAME_LENGTH + 1} characters is too long" in err
