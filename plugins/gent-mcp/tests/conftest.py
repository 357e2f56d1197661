"""Fixtures of the gent-mcp tests: a plugin sandbox, agents from config text, a temporary git
repository, and a check after every test that no MCP server process was left running."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp_helpers import child_processes, wait_until_gone

from gent_core.testing import PluginSandbox


@pytest.fixture(autouse=True)
def no_server_left_running() -> Iterator[None]:
    """Fail the test that leaves a child process (an MCP server) of the test process behind."""
    before = {process.pid for process in child_processes()}
    yield
    left = [process for process in wait_until_gone(before) if process.pid not in before]
    assert not left, f"processes left running after the test: {left}"


@pytest.fixture
def sandbox(gent_plugins: PluginSandbox) -> PluginSandbox:
    """Core, xml, json, the basic tools and gent-mcp, registered without installing."""
    import gent_json.plugin
    import gent_mcp.plugin
    import gent_tools_basic.plugin
    import gent_xml.plugin

    gent_plugins.register_core()
    gent_plugins.register(gent_xml.plugin, "xml")
    gent_plugins.register(gent_json.plugin, "json")
    gent_plugins.register(gent_tools_basic.plugin, "basic")
    gent_plugins.register(gent_mcp.plugin, "mcp")
    return gent_plugins


def _git(repository: Path, *arguments: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=Test", "-c", "user.email=test@example.invalid", *arguments],
        cwd=repository,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def git_repository(tmp_path: Path) -> Path:
    """A git repository with two commits and one modified file."""
    repository = tmp_path / "repo"
    repository.mkdir()
    _git(repository, "init", "-q", "-b", "main")
    (repository / "README.md").write_text("hello\n")
    _git(repository, "add", "README.md")
    _git(repository, "commit", "-q", "-m", "first commit")
    (repository / "notes.txt").write_text("notes\n")
    _git(repository, "add", "notes.txt")
    _git(repository, "commit", "-q", "-m", "add the notes")
    (repository / "README.md").write_text("hello again\n")
    return repository
