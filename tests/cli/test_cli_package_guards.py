"""``gent uninstall`` refuses what gent needs to run (gent-core's requirements, transitively,
and pip) with the reason given for gent-core itself; ``gent install`` passes no pip option
through a NAME or a PATH (issue 24, section 5). pip itself is replaced by a recorder: what it
would be given is the behaviour."""

from __future__ import annotations

from importlib import metadata

import pytest

from gent_core._cli import pip as gent_pip
from gent_core._cli.main import main


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("pluggy", "gent-core requires it, so removing it would break every gent command"),
        ("pip", "gent install and gent uninstall run it, so removing it would break them"),
    ],
)
def test_what_gent_needs_is_refused_before_pip_runs(
    name: str, reason: str, pip_runs: list[list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["uninstall", "-y", "gent-json", name]) == 2
    err = capsys.readouterr().err
    assert f"refusing to uninstall {name}: {reason}" in err
    assert "pipx uninstall gent-core" in err
    assert "nothing was removed" in err
    assert pip_runs == []


def test_a_requirement_of_a_requirement_is_refused_too(
    pip_runs: list[list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    """pydantic-core is not named by gent-core, only by pydantic (read from the metadata)."""
    assert "pydantic-core" not in {
        gent_pip.requirement_name(line) for line in metadata.requires("gent-core") or []
    }
    assert main(["uninstall", "-y", "Pydantic_Core"]) == 2
    err = capsys.readouterr().err
    assert "refusing to uninstall pydantic-core: gent-core requires it (through pydantic)" in err
    assert pip_runs == []


def test_only_what_applies_here_is_protected() -> None:
    protected = gent_pip.protected_distributions()
    for name in ("gent-core", "pluggy", "pydantic", "pyyaml", "regex", "rich", "pip"):
        assert name in protected, name
    # extras (test, dev, docs) are not what gent needs to run
    assert "pytest" not in protected and "mypy" not in protected


@pytest.mark.parametrize(
    "arguments",
    [
        ["--", "--target=/tmp/elsewhere", "gent-mcp"],
        ["--", "-r", "requirements.txt"],
        ["gent-mcp", "--", "--index-url=http://example.invalid/simple"],
        ["--editable=--target=/tmp/elsewhere"],
    ],
)
def test_install_refuses_names_that_pip_would_read_as_options(
    arguments: list[str], pip_runs: list[list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", *arguments]) == 2
    err = capsys.readouterr().err
    assert "looks like an option; gent install passes only its own options to pip" in err
    assert "nothing was installed" in err
    assert pip_runs == []
