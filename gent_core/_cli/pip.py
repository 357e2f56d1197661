"""pip in the environment gent runs in: what ``gent install`` and ``gent uninstall`` share.

pip runs as ``sys.executable -m pip`` (the ``llm install`` convention), so a gent installed
with pipx (or in any virtual environment) gains plugins in *its own* environment, whatever
``pip`` is first on the ``PATH``. What the plugins supply afterwards is asked of a fresh
``python -m gent_core plugins --json``: a new interpreter sees exactly what the next ``gent``
will (editable installs, an upgraded gent-core), which this process, with modules already
imported, cannot.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import json
import os
import re
import subprocess
import sys
from collections.abc import Sequence

from gent_core._cli.errors import UsageError
from gent_core._plugins.manager import PluginInfo

__all__ = [
    "GENT_DISTRIBUTION",
    "canonical_name",
    "installed_entry_points",
    "pip_command",
    "plugins_now",
    "requirement_name",
    "run_pip",
]

GENT_DISTRIBUTION = "gent-core"
"""gent's own distribution, which ``gent uninstall`` refuses to remove."""

_NAME_END = re.compile(r"[\s\[<>=!~;@(]")


def canonical_name(name: str) -> str:
    """A distribution name as pip compares them (PEP 503): ``Gent_Core`` -> ``gent-core``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    """The distribution name of a requirement (``gent-mcp>=0.1`` -> ``gent-mcp``)."""
    return canonical_name(_NAME_END.split(requirement.strip(), maxsplit=1)[0])


def pip_command(subcommand: str, arguments: Sequence[str], *, quiet: bool = False) -> list[str]:
    """The command line running pip ``subcommand`` with ``arguments`` in this environment."""
    return [sys.executable, "-m", "pip", subcommand, *(["--quiet"] if quiet else []), *arguments]


def run_pip(command: Sequence[str]) -> int:
    """Run ``command`` (see :func:`pip_command`) with this terminal; return pip's exit code.

    Raises:
        UsageError: pip is not installed in gent's environment.
    """
    if importlib.util.find_spec("pip") is None:
        raise UsageError(
            f"pip is not installed in the environment gent runs in ({sys.executable}); add it "
            f"with: {sys.executable} -m ensurepip (an environment made by 'uv tool install' has "
            "none: there, use 'uv tool install --with NAME gent-core')"
        )
    try:
        return subprocess.run(list(command), check=False).returncode
    except KeyboardInterrupt:
        return 130
    finally:
        # What is installed changed: later lookups in this process must not use stale caches.
        from gent_core._plugins.manager import reset_plugin_manager

        importlib.invalidate_caches()
        reset_plugin_manager()


def installed_entry_points() -> dict[str, str | None]:
    """Every ``gent`` entry point installed now: ``{plugin name: "distribution version"}``,
    read from the package metadata without importing any plugin.
    """
    from gent_core._plugins.manager import installed_plugins

    return {
        plugin.name: f"{plugin.distribution} {plugin.version}" if plugin.distribution else None
        for plugin in installed_plugins()
    }


def plugins_now() -> list[PluginInfo]:
    """The plugins a fresh ``gent`` process finds, with what each supplies or why it failed.

    Raises:
        UsageError: When the fresh process cannot list them (its error is quoted).
    """
    fields = {field.name for field in dataclasses.fields(PluginInfo)}
    completed = subprocess.run(
        [sys.executable, "-m", "gent_core", "plugins", "--json"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )
    try:
        listed = json.loads(completed.stdout)
    except ValueError:
        reason = (completed.stderr.strip().splitlines() or ["no output"])[-1]
        raise UsageError(f"the installed plugins cannot be listed: {reason}") from None
    return [PluginInfo(**{k: v for k, v in item.items() if k in fields}) for item in listed]
