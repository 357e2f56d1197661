"""The quick commands import only what they need (issue 18, section 2).

Each command runs in a fresh interpreter with the plugins installed in this environment; the
modules it loaded are then compared with the modules that implement the commands and the
components those plugins supply (found after the command has run, so finding them cannot
hide anything). Not timed: what is checked is which modules load, not how fast.

A command's interpreter is started once per test process (the two ``--version`` checks share
one). Finding the components loads every plugin (a second or more of CPU), so only the
interpreter of ``gent plugins``, which has loaded them all already, finds them, for every
check.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from importlib import metadata
from typing import Any

import pytest

_PROBE = """
import json, sys
from gent_core._cli.main import main

try:
    main(sys.argv[2:])
except SystemExit:
    pass
found = {"loaded": sorted(sys.modules)}

if sys.argv[1] == "and-components":
    from gent_core._cli.commands import find_commands
    from gent_core._plugins.manager import get_plugin_manager
    from gent_core._plugins.registry import KINDS, Registry

    def module_of(factory):
        module = getattr(factory, "__module__", None)
        if module is None or module == "builtins":
            module = type(factory).__module__
        return module

    registry = Registry.from_plugin_manager(get_plugin_manager())
    found["components"] = sorted(
        {module_of(entry.factory) for kind in KINDS if kind != "command"
         for entry in registry.entries(kind)}
    )
    found["commands"] = {name: entry.module for name, entry in find_commands().items()}
sys.__stdout__.write("\\nPROBE " + json.dumps(found) + "\\n")
"""

FINDS_COMPONENTS = ("plugins",)
"""The command whose interpreter also finds the components and commands: it loads every
plugin anyway."""


def _installed(distribution: str) -> bool:
    try:
        metadata.distribution(distribution)
    except metadata.PackageNotFoundError:
        return False
    return True


@functools.cache
def _probe(*arguments: str) -> dict[str, Any]:
    """What ``gent ARGUMENTS`` loaded in a fresh interpreter (``loaded``; and for
    :data:`FINDS_COMPONENTS`, the ``components`` and ``commands`` found after it ran)."""
    mode = "and-components" if arguments == FINDS_COMPONENTS else "loaded-only"
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, mode, *arguments],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    [line] = [line for line in done.stdout.splitlines() if line.startswith("PROBE ")]
    found: dict[str, Any] = json.loads(line[len("PROBE ") :])
    return found


def _components_and_commands() -> tuple[list[str], dict[str, str]]:
    found = _probe(*FINDS_COMPONENTS)
    return found["components"], found["commands"]


@pytest.mark.parametrize(
    ("arguments", "own_command"),
    [
        (["--version"], None),
        (["--help"], None),
        (["help"], "help"),
        (["run", "--help"], "run"),
        (["plugins"], "plugins"),
    ],
)
def test_a_quick_command_imports_no_other_command_and_no_pydantic(
    arguments: list[str], own_command: str | None
) -> None:
    loaded = set(_probe(*arguments)["loaded"])
    components, commands = _components_and_commands()
    assert {"run", "plugins", "help"} <= set(commands)  # the probe sees them
    imported = sorted(
        name for name, module in commands.items() if module in loaded and name != own_command
    )
    assert imported == [], f"gent {' '.join(arguments)} imported these commands' modules"
    if own_command != "plugins":  # it lists components: their modules are read
        assert "pydantic" not in loaded
        if _installed("gent-xml"):
            assert "gent_xml.format" in components  # the probe sees them
        assert sorted(set(components) & loaded) == []


def test_version_reads_no_plugin_metadata() -> None:
    loaded = set(_probe("--version")["loaded"])
    assert not {"importlib.metadata", "gent_core._plugins.manager", "pluggy"} & loaded
