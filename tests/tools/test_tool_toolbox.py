"""Toolbox: method tools bound to an instance that holds configuration or state."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from gent_core.context import ExecutionContext
from gent_core.testing import run_tool_sync
from gent_core.tools import FunctionTool, Toolbox, tool


class Files(Toolbox):
    def __init__(self, root: Path) -> None:
        self.root = root
        self.reads = 0
        self._lock = threading.Lock()

    @tool
    def read(self, path: str) -> str:
        """Read a text file.

        Args:
            path: Relative to the root.
        """
        with self._lock:
            self.reads += 1
        return (self.root / path).read_text()

    @tool(name="list_files")
    async def listing(self, pattern: str = "*") -> list[str]:
        """List files matching a glob pattern."""
        await asyncio.sleep(0)
        return sorted(p.name for p in self.root.glob(pattern))

    def helper(self) -> str:
        return "not a tool"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "a.txt").write_text("alpha")
    (tmp_path / "b.md").write_text("beta")
    return tmp_path


def test_tools_are_bound_to_the_instance(root: Path) -> None:
    files = Files(root)
    tools = files.tools()
    assert [t.name for t in tools] == ["read", "list_files"]
    assert all(isinstance(t, FunctionTool) for t in tools)
    read, listing = tools
    assert list(read.parameters["properties"]) == ["path"]  # no 'self'
    assert read.parameters["properties"]["path"]["description"] == "Relative to the root."
    assert run_tool_sync(read, {"path": "a.txt"}).output == "alpha"
    assert run_tool_sync(listing, {"pattern": "*.md"}).output == ["b.md"]
    assert files.reads == 1


def test_two_instances_keep_their_own_state(
    root: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    other_root = tmp_path_factory.mktemp("other")
    (other_root / "a.txt").write_text("other alpha")
    first, second = Files(root), Files(other_root)
    read_first = first.tools()[0]
    read_second = second.tools(prefix="other_")[0]
    assert read_second.name == "other_read"
    assert run_tool_sync(read_first, {"path": "a.txt"}).output == "alpha"
    assert run_tool_sync(read_second, {"path": "a.txt"}).output == "other alpha"
    assert (first.reads, second.reads) == (1, 1)


def test_method_read_from_instance_is_bound_and_callable(root: Path) -> None:
    files = Files(root)
    assert isinstance(files.read, FunctionTool)
    assert files.read("a.txt") == "alpha"
    assert files.read is files.read  # cached on the instance
    assert Files.read.is_method


def test_unbound_method_tool_cannot_be_called() -> None:
    with pytest.raises(TypeError, match="is a method"):
        asyncio.run(Files.read.call({"path": "a.txt"}, ExecutionContext()))


def test_binding_shares_the_validation_model(root: Path) -> None:
    read = Files(root).tools()[0]
    assert read._spec is Files.read._spec
    assert read.validate_arguments({"path": 5}) == {"path": "5"}


def test_subclass_overrides_and_hides_tools(root: Path) -> None:
    class Upper(Files):
        @tool
        def read(self, path: str) -> str:
            """Read a file in upper case."""
            return (self.root / path).read_text().upper()

    class NoList(Files):
        listing = None  # type: ignore[assignment]

    upper = Upper(root)
    assert [t.name for t in upper.tools()] == ["read", "list_files"]
    assert run_tool_sync(upper.tools()[0], {"path": "a.txt"}).output == "ALPHA"
    assert [t.name for t in NoList(root).tools()] == ["read"]
