"""Each source file read, parsed and walked once per test process, for every architecture check.

The checks read the same files again and again: gent_core's modules for the import graph, the
function lengths, the literals and the public names; the plugins' files for the public surface
and the function lengths; the test files for the clock check. Parsing is most of their cost
(about 6 ms a file, some 700 files), so they share one parse of each file, and one walk of its
tree. The trees are read, never changed: a check that must change one parses its own.

The trees of every file take some 150 MB, and each full collection of Python's garbage
collector walks them (about half a second): ``conftest.py`` forgets them when a test process
leaves this folder's tests.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

__all__ = ["forget", "nodes", "source", "tree"]


@functools.cache
def source(path: Path) -> str:
    """The text of ``path`` (UTF-8)."""
    return path.read_text(encoding="utf-8")


@functools.cache
def tree(path: Path) -> ast.Module:
    """The syntax tree of ``path``."""
    return ast.parse(source(path), filename=str(path))


@functools.cache
def nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of the tree of ``path``, in :func:`ast.walk`'s order."""
    return tuple(ast.walk(tree(path)))


def forget() -> None:
    """Drop every file read, parsed and walked so far."""
    for cached in (source, tree, nodes):
        cached.cache_clear()
