"""The core prompts and constrains models only through the contracts: the modules that write
prompts, few-shot examples and grammars name no shipped format or tool chain (issue 10).

A default in ``AgentConfig`` (``format: xml``) is configuration and lives elsewhere.
"""

from __future__ import annotations

import ast

from tests.architecture import sources
from tests.architecture.imports import PACKAGE

# The modules that decide what a model reads and may write. The prompts model back ends send
# are gent-prompt's, which keeps the same rule in its own tests
# (plugins/gent-prompt/tests/test_prompt_knows_no_plugin.py).
PROMPT_AND_GRAMMAR = [
    "_guidance.py",
    "_schema_examples.py",
    "formats.py",
    "sections.py",
    "toolchain.py",
    "termination.py",
    "_terminations",
    "model.py",
    "_textscan.py",
    "_grammar",
    "_cli/describe.py",
]
SHIPPED = {"xml", "markdown", "json", "yaml"}
# (file, literal): why it is not a plugin's name.
ALLOWED = {
    ("_grammar/json_schema.py", "json"): "the converter's JSON flavour",
    ("_grammar/json_schema.py", "yaml"): "the converter's YAML-flow flavour",
}


def _literals(path: str) -> list[tuple[str, int, str]]:
    found = []
    root = PACKAGE / path
    files = sorted(root.rglob("*.py")) if root.is_dir() else [root]
    for file in files:
        nodes = sources.nodes(file)
        docstrings = {
            id(node.value)
            for node in nodes
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        }
        for node in nodes:
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings
            ):
                found.append((file.relative_to(PACKAGE).as_posix(), node.lineno, node.value))
    return found


def test_no_literal_names_a_shipped_format_or_chain() -> None:
    named = [
        f"{file}:{line}: {text!r}"
        for path in PROMPT_AND_GRAMMAR
        for file, line, text in _literals(path)
        if (text.lower() in SHIPPED and (file, text.lower()) not in ALLOWED)
        or any(f"gent_{name}" in text or f"gent-{name}" in text for name in SHIPPED)
    ]
    assert not named, "the core names a plugin:\n" + "\n".join(named)


def test_the_check_sees_literals_but_not_docstrings() -> None:
    texts = [text for _, _, text in _literals("_grammar/json_schema.py")]
    assert "json" in texts  # the flavour names are literals the check reads (and allows)
    assert not any(text.startswith("JSON Schema to GBNF") for text in texts)  # the docstring
