"""gent-prompt writes prompts and grammars only through gent's contracts: its modules name no
shipped format or tool chain and import no plugin (the rule the core's
``tests/architecture/test_core_knows_no_plugin.py`` keeps for the core's own prompt code)."""

from __future__ import annotations

import ast
from pathlib import Path

import gent_prompt

PACKAGE = Path(gent_prompt.__file__).resolve().parent
SHIPPED = {"xml", "markdown", "json", "yaml", "pythonic", "natural"}
ALLOWED_IMPORTS = ("gent_core", "gent_prompt")


def _trees() -> list[tuple[str, ast.Module]]:
    files = sorted(PACKAGE.glob("*.py"))
    assert files, PACKAGE
    return [(file.name, ast.parse(file.read_text("utf-8"))) for file in files]


def _literals(tree: ast.Module) -> list[tuple[int, str]]:
    docstrings = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


def _imported(tree: ast.Module) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def test_no_literal_names_a_shipped_format_or_chain() -> None:
    named = [
        f"{name}:{line}: {text!r}"
        for name, tree in _trees()
        for line, text in _literals(tree)
        if text.lower() in SHIPPED
        or any(f"gent_{one}" in text or f"gent-{one}" in text for one in SHIPPED)
    ]
    assert not named, "gent-prompt names a plugin:\n" + "\n".join(named)


def test_no_module_imports_a_plugin() -> None:
    plugins = [
        f"{name}:{line}: {module}"
        for name, tree in _trees()
        for line, module in _imported(tree)
        if module.startswith("gent") and not module.startswith(ALLOWED_IMPORTS)
    ]
    assert not plugins, "gent-prompt imports a plugin:\n" + "\n".join(plugins)


def test_the_checks_see_literals_and_imports_but_not_docstrings() -> None:
    tree = ast.parse('"""Uses json."""\nimport gent_json\nNAME = "yaml"\n')
    assert [text for _, text in _literals(tree)] == ["yaml"]
    assert [module for _, module in _imported(tree)] == ["gent_json"]
