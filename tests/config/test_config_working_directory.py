"""A ``working_directory`` that cannot be used is a config error naming the line, never a
traceback (issue 11, bug 8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gent_core._config import ConfigError, parse_config


def problem(text: str, base: Path) -> str:
    with pytest.raises(ConfigError) as caught:
        parse_config(text, source="agent.yaml", base_dir=base)
    return str(caught.value)


def test_unknown_user_in_a_tilde_path(tmp_path: Path) -> None:
    message = problem("model: scripted\nworking_directory: ~nosuchuser_gent/x\n", tmp_path)
    assert "agent.yaml, line 2" in message
    assert "'~nosuchuser_gent' names no user on this machine" in message


def test_a_working_directory_that_is_a_symlink_loop(tmp_path: Path) -> None:
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    message = problem("model: scripted\nworking_directory: loop/sub\n", tmp_path)
    assert "agent.yaml, line 2" in message
    assert "symbolic link loop" in message


def test_a_working_directory_with_a_nul_byte(tmp_path: Path) -> None:
    message = problem('model: scripted\nworking_directory: "a\\0b"\n', tmp_path)
    assert "agent.yaml, line 2" in message
    assert "contains a NUL byte" in message


def test_a_tilde_path_of_the_current_user_still_works(tmp_path: Path) -> None:
    loaded = parse_config("model: scripted\nworking_directory: '~'\n", base_dir=tmp_path)
    assert loaded.config.working_directory == Path.home().resolve()
