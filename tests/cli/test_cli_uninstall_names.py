"""``gent uninstall``: only distributions reach pip, after ``--``; a plugin's name stands for its
distribution; options and names that are not installed are refused before pip runs (issue 17,
item 7). pip itself is replaced by a recorder: what it would be given is the behaviour."""

from __future__ import annotations

import sys

import pytest

from gent_core._cli.main import main


@pytest.mark.parametrize(
    "arguments",
    [
        ["-y", "--", "-r", "req.txt"],
        ["--", "--requirement=req.txt"],
        ["-y", "gent-xml", "--", "-e"],
    ],
)
def test_options_after_double_dash_never_reach_pip(
    arguments: list[str], pip_runs: list[list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["uninstall", *arguments]) == 2
    err = capsys.readouterr().err
    assert "looks like an option; gent uninstall passes no options to pip" in err
    assert "nothing was removed" in err
    assert pip_runs == []


def test_names_reach_pip_after_double_dash(
    pip_runs: list[list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["uninstall", "-y", "Gent_JSON", "gent-json"]) == 0
    assert pip_runs == [
        [sys.executable, "-m", "pip", "uninstall", "--yes", "--", "gent-json"]
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("plugin", "distribution"), [("basic", "gent-tools-basic"), ("json", "gent-json")]
)
def test_a_plugin_name_stands_for_its_distribution(
    plugin: str,
    distribution: str,
    pip_runs: list[list[str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["uninstall", "-y", plugin]) == 0
    assert pip_runs == [[sys.executable, "-m", "pip", "uninstall", "--yes", "--", distribution]]
    out = capsys.readouterr().out
    assert f"{plugin} is a plugin of {distribution}: removing {distribution}" in out


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("mytool", "'mytool' is neither an installed distribution nor the name of an installed"),
        ("plugins/gent-xml", "'plugins/gent-xml' is not a package name"),
        ("gent-mcp>=0.1", "'gent-mcp>=0.1' is not a package name"),
        ("gent_nothing-1.0-py3-none-any.whl", "is of 'gent_nothing', which is not installed"),
    ],
)
def test_names_that_are_not_installed_are_errors(
    name: str, problem: str, pip_runs: list[list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["uninstall", "-y", "gent-json", name]) == 2
    err = capsys.readouterr().err
    assert problem in err
    assert "nothing was removed" in err
    assert pip_runs == []  # nothing removed, not even the valid name before it


@pytest.mark.parametrize("name", ["core", "gent_core-0.1.0-py3-none-any.whl"])
def test_gent_itself_is_refused_by_any_name(
    name: str, pip_runs: list[list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["uninstall", "-y", name]) == 2
    assert "refusing to uninstall gent-core" in capsys.readouterr().err
    assert pip_runs == []
