"""No function in gent_core or a plugin is over 60 lines unless its docstring says why
(docs/architecture.md, "Function length"): a line of the docstring starting with "Long because".

A function's length is counted from its ``def`` line to its last line, docstring included,
decorators not (the count ``ast`` gives). A long function usually does two jobs; when it
does one (a flat table of arguments, a state machine kept in one loop for speed), the
docstring says so, and the reader knows the length is deliberate.

The plugins' code is every plugin package (``plugins/*/gent_*``) and the plugin template's
source files (``plugins/gent-template/_template``): ``gent new-plugin`` copies them into every
new plugin's package, so they are code a plugin ships and the shape new plugins start from.
Tests are left out, here as in gent_core, and so is the template's ``test_plugin.py``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

from tests.architecture import sources
from tests.architecture.imports import PACKAGE

ROOT = PACKAGE.parent
PLUGINS = ROOT / "plugins"
TEMPLATE = PLUGINS / "gent-template" / "_template"

MAX_LINES = 60
REASON = "Long because"


def long_functions(source: str, where: str) -> list[str]:
    """Every function of ``source`` over :data:`MAX_LINES` lines whose docstring has no line
    starting with :data:`REASON`, as ``where:line name (N lines)``.
    """
    return _long(ast.walk(ast.parse(source)), where)


def _long(nodes: Iterable[ast.AST], where: str) -> list[str]:
    """:func:`long_functions` over the nodes of a parsed file."""
    found = []
    for node in nodes:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        assert node.end_lineno is not None
        length = node.end_lineno - node.lineno + 1
        if length <= MAX_LINES:
            continue
        docstring = ast.get_docstring(node) or ""
        if any(line.strip().startswith(REASON) for line in docstring.splitlines()):
            continue
        found.append(f"{where}:{node.lineno} {node.name} ({length} lines)")
    return found


def plugin_sources() -> list[Path]:
    """The plugins' code: every module of a plugin package, and the template's source files
    (not its ``test_*`` files)."""
    packages = sorted(path for root in PLUGINS.glob("*/gent_*") for path in root.rglob("*.py"))
    template = sorted(path for path in TEMPLATE.rglob("*.py") if not path.name.startswith("test_"))
    return packages + template


def long_functions_in(paths: list[Path]) -> list[str]:
    """:func:`long_functions` over files, each named by its path from the repository root
    (the shared parse of each: :mod:`tests.architecture.sources`)."""
    return [
        problem
        for path in paths
        for problem in _long(sources.nodes(path), str(path.relative_to(ROOT)))
    ]


def _message(found: list[str]) -> str:
    return (
        f"functions over {MAX_LINES} lines: split them by job, or say why in the docstring "
        f"(a line starting with {REASON!r}):\n" + "\n".join(found)
    )


def test_no_function_is_over_60_lines_without_a_reason() -> None:
    found = long_functions_in(sorted(PACKAGE.rglob("*.py")))
    assert not found, _message(found)


def test_no_plugin_function_is_over_60_lines_without_a_reason() -> None:
    found = long_functions_in(plugin_sources())
    assert not found, _message(found)


def test_the_plugins_code_is_the_packages_and_the_template_not_the_tests() -> None:
    names = {path.relative_to(PLUGINS).as_posix() for path in plugin_sources()}
    assert "gent-pythonic/gent_pythonic/scanner.py" in names
    assert "gent-template/gent_template/scaffold.py" in names
    assert "gent-template/_template/kinds/tool/plugin.py" in names
    assert "gent-template/_template/gent_template/__init__.py" in names
    assert "gent-template/_template/kinds/tool/test_plugin.py" not in names
    assert not [name for name in names if "/tests/" in f"/{name}"]
    packages = {name.split("/")[0] for name in names}
    assert packages == {path.parent.name for path in PLUGINS.glob("*/gent_*")}


def _function(body_lines: int, docstring: str) -> str:
    body = "".join("    x = 1\n" for _ in range(body_lines))
    return f'def f():\n    """{docstring}"""\n{body}'


def test_the_check_counts_lines_and_reads_the_reason() -> None:
    # def line + docstring line + body: 60 lines pass, 61 do not.
    assert long_functions(_function(58, "Short."), "m.py") == []
    assert long_functions(_function(59, "Short."), "m.py") == ["m.py:1 f (61 lines)"]
    with_reason = _function(59, "Summary.\n\n    Long because it is a flat table.\n    ")
    assert long_functions(with_reason, "m.py") == []
    # The words must start a line: a mention in passing is no reason.
    in_passing = _function(59, "Summary, not long because of anything.")
    assert long_functions(in_passing, "m.py") == ["m.py:1 f (61 lines)"]
    nested = "async def outer():\n" + "".join(
        "    " + line + "\n" for line in _function(59, "Inner.").splitlines()
    )
    assert [problem.split(" ")[1] for problem in long_functions(nested, "m.py")] == [
        "outer",
        "f",
    ]
