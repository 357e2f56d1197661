"""Read gent_core's import graph from its source (no import is executed).

Every ``import`` counts: at module level, under ``if TYPE_CHECKING:`` and inside functions,
because each is a design dependency even when it is deferred or only used for types.

The graph is made once per process (from the shared parse, :mod:`tests.architecture.sources`);
each caller gets a copy of its own.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable
from pathlib import Path

from tests.architecture import sources

__all__ = ["PACKAGE", "import_graph", "module_name", "strongly_connected"]

PACKAGE = Path(__file__).resolve().parents[2] / "gent_core"


def module_name(path: Path) -> str:
    """``gent_core/tools/base.py`` -> ``gent_core.tools.base`` (a package is its folder)."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported(nodes: Iterable[ast.AST], module: str, is_package: bool, known: set[str]) -> set[str]:
    found: set[str] = set()

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = resolve(alias.name)
                if target:
                    found.add(target)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = module if is_package else module.rpartition(".")[0]
                for _ in range(node.level - 1):
                    parent = parent.rpartition(".")[0]
                base = f"{parent}.{base}" if base else parent
            for alias in node.names:
                full = f"{base}.{alias.name}"
                target = full if full in known else resolve(base)
                if target:
                    found.add(target)
    found.discard(module)
    return found


@functools.cache
def _graph() -> dict[str, frozenset[str]]:
    paths = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    known = set(paths)
    return {
        module: frozenset(_imported(sources.nodes(path), module, path.name == "__init__.py", known))
        for module, path in paths.items()
    }


def import_graph() -> dict[str, set[str]]:
    """Each gent_core module and the gent_core modules it imports (a fresh copy)."""
    return {module: set(imported) for module, imported in _graph().items()}


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: groups of two or more modules that import each other, directly
    or through others (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            advanced = False
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = counter
                    counter += 1
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    advanced = True
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    circles.append(sorted(group))
    return circles
