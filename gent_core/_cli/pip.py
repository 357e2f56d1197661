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
    "protected_distributions",
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


def _needed_here(requirement: str) -> bool:
    """Whether a requirement line of a distribution's metadata applies in this environment:
    not one of an extra's, and its marker (when ``packaging`` is there to read it) true.
    A marker that cannot be read counts as true: the requirement is kept.
    """
    _, _, marker = requirement.partition(";")
    marker = marker.strip()
    if not marker:
        return True
    if "extra" in marker:
        return False
    try:
        from packaging.markers import Marker
    except ImportError:  # pragma: no cover - packaging is nearly always there
        return True
    try:
        return bool(Marker(marker).evaluate())
    except Exception:  # noqa: BLE001 - an unreadable marker: keep the requirement
        return True


def protected_distributions() -> dict[str, str]:
    """The distributions ``gent uninstall`` refuses to remove, each with the reason: gent-core
    itself, what it requires to run, transitively (read from the installed metadata: the
    requirements that apply in this environment, extras left out), and pip, which ``gent
    install`` and ``gent uninstall`` run.

    Returns:
        ``{canonical name: why it is needed}`` (``"gent-core requires it, so ..."``).
    """
    from importlib import metadata

    protected = {
        GENT_DISTRIBUTION: "it is gent itself, and this command would remove the program running it"
    }
    queue = [GENT_DISTRIBUTION]
    while queue:
        name = queue.pop(0)
        try:
            requirements = metadata.requires(name) or []
        except (metadata.PackageNotFoundError, ValueError):
            continue
        for requirement in requirements:
            dependency = requirement_name(requirement)
            if dependency in protected or not _needed_here(requirement):
                continue
            via = "" if name == GENT_DISTRIBUTION else f" (through {name})"
            protected[dependency] = (
                f"gent-core requires it{via}, so removing it would break every gent command"
            )
            queue.append(dependency)
    protected.setdefault(
        "pip", "gent install and gent uninstall run it, so removing it would break them"
    )
    return protected


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
