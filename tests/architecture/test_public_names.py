"""Few public names, each documented, and toolkits with a floor (docs/architecture.md, "The
public surface").

* The distinct public names across gent_core's public modules (:data:`PUBLIC`: their
  ``__all__`` and lazy export tables) stay at or under :data:`MAX_PUBLIC_NAMES`, a ratchet
  lowered as names leave the core; the goal is 180 (pluggy has 14, llm 36).
* Every public name is documented: a class, function or module has a docstring of its own,
  and any other value (a constant, a type alias) has an attribute docstring where it is
  defined (the string right after its assignment) or is named in the docstring of a public
  module that exports it.
* A toolkit (:data:`TOOLKITS`) imports, directly or through others, no module of the
  command line, the agent loop or the configuration: it is a kit with a floor, not a facade.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import itertools
from collections.abc import Mapping
from pathlib import Path

from tests.architecture import sources
from tests.architecture.imports import import_graph
from tests.architecture.test_public_surface import PUBLIC

MAX_PUBLIC_NAMES = 261
"""The ceiling on distinct public names today (271 before the toolkit was split, 272 counting
``__version__``; 252 before the base-model prompt left for gent-prompt; 249 before the run
history left the core for gent-history, which records with 12 core names: the
``gent_core.transcript`` toolkit's line builders, reader, lock and replay, the depth of a
record ``OUTPUT_MAX_DEPTH``, the data directory ``user_dir`` and the ``RunHistory`` protocol of
the ``gent_resolve_run`` hook); the goal is 180. Lower it when names leave; never raise it
without a reason in the docs."""

TOOLKITS: Mapping[str, frozenset[str]] = {
    "gent_core.bounds": frozenset(),
    "gent_core.grammar": frozenset(),
    "gent_core.guidance": frozenset(),
    "gent_core.textscan": frozenset(),
    "gent_core.transcript": frozenset(),
    "gent_core.workspace": frozenset(),
    # The frame of a command: these modules and what they import, nothing that runs one.
    "gent_core.cliframe": frozenset(
        {
            "gent_core._cli",
            "gent_core._cli.colors",
            "gent_core._cli.errors",
            "gent_core._cli.helpformat",
            "gent_core._cli.interrupt",
            "gent_core._cli.output",
            "gent_core._cli.signals",
            # the redaction rule is one place (a config's secrets say what to hide)
            "gent_core._config",
            "gent_core._config.secrets",
        }
    ),
}
"""The public toolkit modules, with the modules above the floor each may still reach."""

ABOVE_THE_FLOOR = (
    "gent_core._cli",
    "gent_core._agent",
    "gent_core._execution",
    "gent_core._config",
)
"""The command line, the agent loop (and its execution engine) and the configuration."""


def public_names() -> dict[str, set[str]]:
    """Each distinct public name and the public modules exporting it."""
    found: dict[str, set[str]] = {}
    for module_name in sorted(PUBLIC):
        module = importlib.import_module(module_name)
        names = set(module.__all__) | set(getattr(module, "_EXPORTS", {}))
        for name in names - {"__version__"}:
            found.setdefault(name, set()).add(module_name)
    return found


def test_public_names_stay_few() -> None:
    count = len(public_names())
    assert count <= MAX_PUBLIC_NAMES, (
        f"{count} distinct public names across gent_core's public modules, over the ceiling "
        f"of {MAX_PUBLIC_NAMES} (goal: 180); a name only one plugin uses belongs in that plugin"
    )


def attribute_docstrings(module_name: str) -> set[str]:
    """The module-level names of ``module_name`` assigned with a string right after them."""
    path = getattr(importlib.import_module(module_name), "__file__", None)
    if path is None:
        return set()
    body = sources.tree(Path(path)).body
    found: set[str] = set()
    for node, after in itertools.pairwise(body):
        if not (
            isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            continue
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        found |= {target.id for target in targets if isinstance(target, ast.Name)}
    return found


def _defining_modules(name: str, modules: set[str]) -> set[str]:
    """Where ``name`` is defined: the private module a lazy table names, or the module."""
    return {
        getattr(importlib.import_module(module), "_EXPORTS", {}).get(name, module)
        for module in modules
    }


def _value_documented(name: str, modules: set[str]) -> bool:
    docs = [importlib.import_module(module).__doc__ or "" for module in modules]
    if any(f"{name}`" in doc for doc in docs):
        return True
    return any(name in attribute_docstrings(module) for module in _defining_modules(name, modules))


def undocumented(names: Mapping[str, set[str]]) -> list[str]:
    """``module.name`` for every public name with no documentation (see the module docstring)."""
    missing = []
    for name, modules in sorted(names.items()):
        value = getattr(importlib.import_module(min(modules)), name)
        if inspect.isclass(value) or inspect.isroutine(value) or inspect.ismodule(value):
            documented = bool((value.__doc__ or "").strip())
        else:
            documented = _value_documented(name, modules)
        if not documented:
            missing.append(f"{min(modules)}.{name}")
    return missing


def test_every_public_name_is_documented() -> None:
    missing = undocumented(public_names())
    assert not missing, (
        "public names without documentation (a docstring, or for a value a mention in its "
        "module's docstring):\n" + "\n".join(missing)
    )


def reachable(graph: Mapping[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for target in graph.get(todo.pop(), set()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def above_the_floor(
    graph: Mapping[str, set[str]], toolkit: str, allowed: frozenset[str]
) -> list[str]:
    """The modules above the floor that ``toolkit`` reaches and may not."""
    return sorted(
        module
        for module in reachable(graph, toolkit)
        if module not in allowed
        and any(module == top or module.startswith(top + ".") for top in ABOVE_THE_FLOOR)
    )


def test_toolkits_have_a_floor() -> None:
    graph = import_graph()
    problems = [
        f"{toolkit} reaches {module}"
        for toolkit, allowed in TOOLKITS.items()
        for module in above_the_floor(graph, toolkit, allowed)
    ]
    assert not problems, "toolkits reach the CLI, the loop or the config:\n" + "\n".join(problems)


def test_every_toolkit_is_public() -> None:
    assert set(TOOLKITS) <= PUBLIC


def test_the_floor_check_follows_imports_through_other_modules() -> None:
    graph = {
        "gent_core.bounds": {"gent_core._serialize"},
        "gent_core._serialize": {"gent_core._config.models"},
        "gent_core._config.models": set(),
    }
    assert above_the_floor(graph, "gent_core.bounds", frozenset()) == ["gent_core._config.models"]
    assert above_the_floor(graph, "gent_core.bounds", frozenset({"gent_core._config.models"})) == []


def test_the_documentation_check_names_an_undocumented_value() -> None:
    # ``__all__`` of gent_core.errors is a list: a value that no public docstring names
    assert undocumented({"__all__": {"gent_core.errors"}}) == ["gent_core.errors.__all__"]
