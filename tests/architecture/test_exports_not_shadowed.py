"""A package never exports a name that is also one of its modules.

``gent_tools_basic.calculator`` was both a lazily exported tool and a module: once anything
imported the module, Python set the package's attribute to the module, the lazy
``__getattr__`` was never asked again, and ``from gent_tools_basic import calculator`` gave
the module instead of the tool (``gent_llamacpp.model_file`` did the same). Which one a
caller got depended on what ran before it.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.architecture import sources

ROOT = Path(__file__).resolve().parents[2]


def packages() -> list[Path]:
    """gent_core and every plugin package (and their subpackages)."""
    roots = [ROOT / "gent_core", *sorted(ROOT.glob("plugins/*/gent_*"))]
    return [init.parent for root in roots for init in sorted(root.rglob("__init__.py"))]


def exported(init: Path) -> set[str]:
    """The names in the ``__all__`` of a package's ``__init__.py``."""
    for node in sources.tree(init).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets
        ):
            return {str(name) for name in ast.literal_eval(node.value)}
    return set()


def shadowed(package: Path) -> list[str]:
    """Exported names of ``package`` that are also its modules or subpackages."""
    return sorted(
        name
        for name in exported(package / "__init__.py")
        if (package / f"{name}.py").exists() or (package / name / "__init__.py").exists()
    )


def test_no_exported_name_is_also_a_module() -> None:
    found = {
        str(package.relative_to(ROOT)): names
        for package in packages()
        if (names := shadowed(package))
    }
    assert found == {}, "rename the module (an import of it replaces the exported name)"


def test_the_check_finds_a_shadowed_export(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text('__all__ = ["tool", "other"]\n')
    (package / "tool.py").write_text("")
    (package / "tool_impl.py").write_text("")
    assert shadowed(package) == ["tool"]
