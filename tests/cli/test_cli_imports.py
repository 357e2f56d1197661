"""The quick commands import only what they need (issue 18, section 2).

Each command runs in a fresh interpreter with the plugins installed in this environment; the
modules it loaded are then compared with the modules that implement the commands and the
components those plugins supply (found after the command has run, so finding them cannot
hide anything). Not timed: what is checked is which modules load, not how fast.
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata

import pytest

_PROBE = """
import json, sys
from gent_core._cli.main import main

try:
    main(sys.argv[1:])
except SystemExit:
    pass
loaded = sorted(sys.modules)

from gent_core._cli.commands import find_commands
from gent_core._plugins.manager import get_plugin_manager
from gent_core._plugins.registry import KINDS, Registry

def module_of(factory):
    module = getattr(factory, "__module__", None)
    if module is None or module == "builtins":
        module = type(factory).__module__
    return module

registry = Registry.from_plugin_manager(get_plugin_manager())
components = sorted(
    {module_of(entry.factory) for kind in KINDS if kind != "command"
     for entry in registry.entries(kind)}
)
commands = {name: entry.module for name, entry in find_commands().items()}
sys.__stdout__.write("\\nPROBE " + json.dumps(
    {"loaded": loaded, "components": components, "commands": commands}
) + "\\n")
"""


def _installed(distribution: str) -> bool:
    try:
        metadata.distribution(distribution)
    except metadata.PackageNotFoundError:
        return False
    return True


def _probe(*arguments: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *arguments],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    [line] = [line for line in done.stdout.splitlines() if line.startswith("PROBE ")]
    found: dict[str, object] = json.loads(line[len("PROBE ") :])
    return found


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
    found = _probe(*arguments)
    loaded = set(found["loaded"])  # type: ignore[call-overload]
    commands: dict[str, str] = found["commands"]  # type: ignore[assignment]
    assert {"run", "plugins", "help"} <= set(commands)  # the probe sees them
    imported = sorted(
        name for name, module in commands.items() if module in loaded and name != own_command
    )
    assert imported == [], f"gent {' '.join(arguments)} imported these commands' modules"
    if own_command != "plugins":  # it lists components: their modules are read
        assert "pydantic" not in loaded
        components: list[str] = found["components"]  # type: ignore[assignment]
        if _installed("gent-xml"):
            assert "gent_xml.format" in components  # the probe sees them
        assert sorted(set(components) & loaded) == []


def test_version_reads_no_plugin_metadata() -> None:
    found = _probe("--version")
    loaded = set(found["loaded"])  # type: ignore[call-overload]
    assert not {"importlib.metadata", "gent_core._plugins.manager", "pluggy"} & loaded
