"""The layering of gent_core (docs/architecture.md, "Layers"): a module imports only from its
own layer or lower ones, and no modules import each other in a circle.

Imports inside functions and under ``if TYPE_CHECKING:`` count too: each is a dependency of
the design even when it is deferred or only used for types. A new module must be placed in a
layer here (and in the docs) before the tests pass.
"""

from __future__ import annotations

from tests.architecture.imports import import_graph, strongly_connected

# Bottom-up. A module belongs to the layer of the longest prefix naming it (a package prefix
# covers its modules).
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    (
        "foundation: values, errors and toolkits that know no contract",
        (
            "gent_core.errors",
            "gent_core._importing",
            "gent_core._lazy",
            "gent_core._docs_url",
            "gent_core._user_dirs",
            "gent_core._lines",
            "gent_core.messages",
            "gent_core._regexes",
            "gent_core._limit_rules",
            "gent_core._pydantic_patterns",
            "gent_core._serialize",
            "gent_core._bounded",
            "gent_core._schema_refs",
            "gent_core._schema_walk",
            "gent_core._file_errors",
            "gent_core._open_flags",
            "gent_core._path_probe",
            "gent_core._workspace",
            "gent_core._schema_examples",
            "gent_core._grammar.builder",
            "gent_core._grammar.calls",
            "gent_core._grammar.check",
            "gent_core._grammar.json_schema",
            "gent_core._grammar.match",
            "gent_core._grammar.sample",
            "gent_core._grammar.sections",
            "gent_core._grammar.strings",
            # Run records are values (the hooks pass them): below the agent that makes them.
            "gent_core._record_fields",
            "gent_core.records",
            # the messages step records stand for (a resumed run, a continued conversation)
            "gent_core._replay",
            # the public toolkits of values: bounds and the workspace
            "gent_core.bounds",
            "gent_core.workspace",
        ),
    ),
    (
        "contracts",
        (
            "gent_core.sections",
            "gent_core.formats",
            "gent_core.toolchain",
            "gent_core.termination",
            "gent_core.model",
            "gent_core.context",
            "gent_core.tools.base",
            "gent_core.tools.result",
            "gent_core.tools._describe",
            "gent_core._plugins.decisions",
            # What a run reports as it goes (section events, tool calls): read by observers.
            "gent_core.events",
        ),
    ),
    (
        "toolkits over the contracts and built-in components",
        (
            "gent_core._textscan",
            "gent_core.textscan",
            "gent_core._guidance",
            "gent_core.guidance",
            "gent_core._grammar",
            "gent_core.grammar",
            # The system prompt's parts are what a config builds (and read only contracts):
            # below the configuration that builds them.
            "gent_core._config.prompt",
            "gent_core._observation",
            "gent_core._terminations",
            "gent_core.tools",
            "gent_core.toolsets",
            "gent_core.testing._scripted",
        ),
    ),
    (
        "plugin system",
        (
            "gent_core.hookspecs",
            "gent_core._plugins",
            "gent_core._builtin",
            # The approval policy is a plugin object a config builds (it reads only the
            # contracts and the hook specs): below the configuration that builds it.
            "gent_core._config.approval",
            # The transcript's writer is a run observer (a plugin object the agent registers
            # for a run; it reads only records, the hook specs and the foundation).
            "gent_core._transcript",
            # its public toolkit: the lines, the lock and the replay, for a run history
            "gent_core.transcript",
        ),
    ),
    ("configuration", ("gent_core._config", "gent_core.config")),
    ("execution and the agent loop", ("gent_core._execution", "gent_core._agent")),
    (
        "applications: command line, testing kit, the public namespace",
        (
            "gent_core._cli",
            "gent_core.testing",
            "gent_core.cliframe",
            "gent_core.__main__",
            "gent_core",
        ),
    ),
]

CONTRACTS = dict(LAYERS)["contracts"]


def layer_of(module: str) -> int | None:
    """The index of ``module``'s layer (``None`` when no layer names it)."""
    best: tuple[int, int] | None = None
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (
                best is None or len(prefix) > best[1]
            ):
                best = (index, len(prefix))
    return best[0] if best else None


def test_every_module_has_a_layer() -> None:
    unplaced = sorted(module for module in import_graph() if layer_of(module) is None)
    assert not unplaced, f"place these modules in a layer (and in the docs): {unplaced}"


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a module from a higher layer than its own."""
    upward = []
    for module, imported in sorted(graph.items()):
        own = layer_of(module)
        for target in sorted(imported):
            theirs = layer_of(target)
            if own is not None and theirs is not None and theirs > own:
                upward.append(f"{module} ({LAYERS[own][0]}) imports {target} ({LAYERS[theirs][0]})")
    return upward


def test_no_module_imports_a_higher_layer() -> None:
    upward = upward_imports(import_graph())
    assert not upward, "lower layers import higher ones:\n" + "\n".join(upward)


def test_the_check_names_an_upward_import_and_a_circle() -> None:
    graph = {"gent_core.toolchain": {"gent_core._execution"}, "gent_core._execution": set()}
    assert upward_imports(graph) == [
        "gent_core.toolchain (contracts) imports gent_core._execution "
        "(execution and the agent loop)"
    ]
    assert strongly_connected({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]


def test_contracts_import_no_plugin_manager_execution_or_agent() -> None:
    graph = import_graph()
    forbidden = ("gent_core._plugins.manager", "gent_core._execution", "gent_core._agent")
    found = [
        f"{module} imports {target}"
        for module in sorted(graph)
        if any(module == name or module.startswith(name + ".") for name in CONTRACTS)
        for target in sorted(graph[module])
        if any(target == name or target.startswith(name + ".") for name in forbidden)
    ]
    assert not found, "\n".join(found)


def test_there_are_no_import_circles() -> None:
    circles = strongly_connected(import_graph())
    assert not circles, "modules importing each other in a circle:\n" + "\n".join(
        " <-> ".join(circle) for circle in circles
    )


def test_the_checker_sees_deferred_and_type_only_imports() -> None:
    """The graph counts imports inside functions and under TYPE_CHECKING (a regression test
    of the checker itself, on modules known to have them)."""
    graph = import_graph()
    # run.py refers to the agent's parts only through a protocol (no import of agent.py)...
    assert "gent_core._agent.agent" not in graph["gent_core._agent.run"]
    # ...and agent.py imports configuration inside Agent.from_config.
    assert "gent_core._config" in graph["gent_core._agent.agent"]
    # The package namespace imports its names under TYPE_CHECKING.
    assert "gent_core.toolchain" in graph["gent_core"]
