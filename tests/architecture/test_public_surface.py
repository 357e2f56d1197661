"""The public surface (docs/architecture.md, "The public surface"): plugins import only it.

Public are the ``gent_core`` namespace, the contract modules, the toolkits, the configuration
API and the testing kit (:data:`PUBLIC`). Every other module of ``gent_core`` is private by
name: its dotted path has a part starting with ``_``. Two checks keep it so:

* every module of ``gent_core`` is either public or private by name, so nothing becomes a
  promise by accident;
* no file under ``plugins/`` (the shipped plugins, their tests and the plugin template)
  imports anything but a public module, so a third-party plugin written like them depends
  only on promises.
"""

from __future__ import annotations

import ast
import pkgutil
import re
from collections.abc import Iterable
from pathlib import Path

import gent_core
from tests.architecture import sources

ROOT = Path(__file__).resolve().parents[2]

PUBLIC: frozenset[str] = frozenset(
    {
        "gent_core",
        # the contracts
        "gent_core.context",
        "gent_core.errors",
        "gent_core.events",
        "gent_core.formats",
        "gent_core.hookspecs",
        "gent_core.messages",
        "gent_core.model",
        "gent_core.records",
        "gent_core.sections",
        "gent_core.termination",
        "gent_core.toolchain",
        "gent_core.tools",
        "gent_core.tools.base",
        "gent_core.tools.result",
        "gent_core.toolsets",
        # the toolkits for plugin authors, each with one job and a floor
        "gent_core.bounds",
        "gent_core.cliframe",
        "gent_core.grammar",
        "gent_core.guidance",
        "gent_core.textscan",
        "gent_core.transcript",
        "gent_core.workspace",
        # the configuration API, and the testing kit
        "gent_core.config",
        "gent_core.testing",
    }
)
"""The modules plugins may import."""


def is_private(module: str) -> bool:
    """Whether a dotted module path is private by name (a part starts with one ``_``)."""
    return any(part.startswith("_") and not part.startswith("__") for part in module.split("."))


def core_modules() -> list[str]:
    """Every module and package of ``gent_core``."""
    found = ["gent_core"]
    for info in pkgutil.walk_packages(gent_core.__path__, prefix="gent_core."):
        found.append(info.name)
    return found


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """The ``gent_core`` modules a file imports, with their line numbers."""
    found: list[tuple[int, str]] = []
    for node in sources.nodes(path):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] == "gent_core":
                found.append((node.lineno, node.module))
                if node.module == "gent_core":
                    # ``from gent_core import _agent`` imports a private module too
                    found += [
                        (node.lineno, f"gent_core.{alias.name}")
                        for alias in node.names
                        if is_private(alias.name)
                    ]
        elif isinstance(node, ast.Import):
            found += [
                (node.lineno, alias.name)
                for alias in node.names
                if alias.name.split(".")[0] == "gent_core"
            ]
    return found


PENDING: frozenset[tuple[str, str]] = frozenset()
"""Imports of private modules that wait for a module to move, each with the reason."""


def private_imports(files: list[Path], root: Path = ROOT) -> list[str]:
    """``file:line imports module`` for every import of a module outside :data:`PUBLIC`
    (files named relative to ``root``)."""
    problems = []
    for path in files:
        for line, module in imported_modules(path):
            if (str(path.relative_to(root)), module) in PENDING:
                continue
            if module not in PUBLIC:
                problems.append(f"{path.relative_to(root)}:{line} imports {module}")
    return problems


PRIVATE_PATH = re.compile(r"gent_core(?:[./][A-Za-z]\w*)*[./]_[A-Za-z]\w*")
"""A private module of gent_core named in text: ``gent_core._agent``, ``gent_core.tools._guard``,
``gent_core/_cli/run.py``."""


def _dotted(node: ast.AST) -> str | None:
    """``a.b.c`` for an attribute chain on a name, else ``None``."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def _module_aliases(nodes: Iterable[ast.AST]) -> dict[str, str]:
    """The local names bound to gent_core modules (``t`` for ``import gent_core.tools as t``,
    ``gent_core`` for ``import gent_core.x``), and names imported from them."""
    aliases: dict[str, str] = {}
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] != "gent_core":
                    continue
                if alias.asname:
                    aliases[alias.asname] = alias.name
                else:
                    aliases["gent_core"] = "gent_core"
        elif (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.level == 0
            and node.module.split(".")[0] == "gent_core"
        ):
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return aliases


def private_references(path: Path, root: Path = ROOT) -> list[str]:
    """``file:line names X`` for every way ``path`` reaches a private part of gent_core besides
    an import statement (:func:`private_imports`): a private name imported from a public
    module, an attribute of a gent_core module that is private, and a private module named in
    any text of the file (strings, docstrings, comments: ``importlib.import_module`` with a
    literal, code run from a string, a cross-reference).
    """
    source = sources.source(path)
    where = str(path.relative_to(root))
    problems = [
        f"{where}:{source.count(chr(10), 0, match.start()) + 1} names {match.group()}"
        for match in PRIVATE_PATH.finditer(source)
    ]
    nodes = sources.nodes(path)
    aliases = _module_aliases(nodes)
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] == "gent_core" and not is_private(node.module):
                problems += [
                    f"{where}:{node.lineno} names {node.module}.{alias.name}"
                    for alias in node.names
                    if node.module != "gent_core" and is_private(alias.name)
                ]
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            dotted = _dotted(node)
            if dotted is None:
                continue
            head, _, rest = dotted.partition(".")
            if head in aliases and rest:
                reached = _up_to_private(f"{aliases[head]}.{rest}")
                if reached and not is_private(aliases[head]):
                    problems.append(f"{where}:{node.lineno} names {reached}")
    return sorted(set(problems), key=_line_of)


def _up_to_private(dotted: str) -> str | None:
    """``dotted`` cut after its first private part (``gent_core.tools._guard`` of
    ``gent_core.tools._guard.force_stop``), or ``None`` when no part is private."""
    parts = dotted.split(".")
    for index, part in enumerate(parts):
        if is_private(part):
            return ".".join(parts[: index + 1])
    return None


def _line_of(problem: str) -> tuple[str, int]:
    where, rest = problem.split(":", 1)
    return where, int(rest.split()[0])


def test_every_core_module_is_public_or_private_by_name() -> None:
    unsorted = [
        module
        for module in core_modules()
        if module not in PUBLIC and not is_private(module) and not module.endswith(".__main__")
    ]
    assert not unsorted, (
        "these modules are neither in the public surface nor private by name (rename them "
        f"with a leading '_', or make them public in docs and PUBLIC): {unsorted}"
    )


def test_every_public_module_exists() -> None:
    assert set(core_modules()) >= PUBLIC


def test_plugins_and_the_template_import_only_the_public_surface() -> None:
    files = sorted((ROOT / "plugins").rglob("*.py"))
    assert len(files) > 100  # the walk found the plugins
    problems = private_imports(files)
    assert not problems, "plugins import private modules of gent_core:\n" + "\n".join(problems)


def test_plugins_name_no_private_module_in_any_way() -> None:
    problems = [
        problem
        for path in sorted((ROOT / "plugins").rglob("*.py"))
        for problem in private_references(path)
    ]
    assert not problems, (
        "plugin files reach or name private modules of gent_core (use the public surface; in "
        "a docstring, name the public module or say what the code does):\n" + "\n".join(problems)
    )


def test_the_check_finds_every_way_around_an_import(tmp_path: Path) -> None:
    sample = tmp_path / "plugin.py"
    sample.write_text(
        "import importlib\n"
        "import gent_core.tools\n"
        "import gent_core.tools as t\n"
        "from gent_core.tools import _guard\n"
        "mod = importlib.import_module('gent_core._agent')\n"
        "stop = gent_core.tools._guard.force_stop\n"
        "check = t._validator\n"
        '"""See :func:`gent_core._callparse.read_json_calls`."""\n'
        "# the code lives in gent_core/_cli/run.py\n"
        "fine = gent_core.tools.tool\n"
        "also_fine = t.__name__\n",
        encoding="utf-8",
    )
    assert private_references(sample, root=tmp_path) == [
        "plugin.py:4 names gent_core.tools._guard",
        "plugin.py:5 names gent_core._agent",
        "plugin.py:6 names gent_core.tools._guard",
        "plugin.py:7 names gent_core.tools._validator",
        "plugin.py:8 names gent_core._callparse",
        "plugin.py:9 names gent_core/_cli",
    ]


def test_the_check_finds_private_and_unknown_imports(tmp_path: Path) -> None:
    sample = tmp_path / "plugin.py"
    sample.write_text(
        "import gent_core._agent\n"
        "from gent_core._serialize import dumps_json\n"
        "from gent_core import _cli\n"
        "from gent_core.bounds import dumps_json as ok\n"
        "from gent_core import Agent\n"
        "def later():\n    from gent_core.tools._validator import SchemaValidator\n",
        encoding="utf-8",
    )
    assert private_imports([sample], root=tmp_path) == [
        "plugin.py:1 imports gent_core._agent",
        "plugin.py:2 imports gent_core._serialize",
        "plugin.py:3 imports gent_core._cli",
        "plugin.py:7 imports gent_core.tools._validator",
    ]


def test_every_public_name_resolves() -> None:
    import importlib

    for module_name in sorted(PUBLIC):
        module = importlib.import_module(module_name)
        for name in module.__all__:
            assert getattr(module, name) is not None, f"{module_name}.{name}"
