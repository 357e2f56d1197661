"""Write throwaway plugin distributions to disk: for tests and benchmarks of plugin discovery."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

__all__ = ["build_wheel", "write_plugin_project"]

_PYPROJECT = """\
[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "{distribution}"
version = "{version}"
requires-python = ">=3.10"
dependencies = []

[project.entry-points.gent]
{entry_point} = "{module}"

[tool.hatch.build.targets.wheel]
packages = ["{module}"]
"""


def write_plugin_project(
    root: Path,
    distribution: str,
    source: str,
    *,
    entry_point: str | None = None,
    version: str = "0.0.1",
) -> Path:
    """Write a minimal installable plugin project and return its directory.

    Args:
        root: Directory to create the project in (``root/<distribution>``).
        distribution: The distribution name (``"gent-throwaway"``).
        source: The plugin module's source code (dedented automatically).
        entry_point: The entry-point name; defaults to the distribution name.
        version: The distribution's version.
    """
    module = distribution.replace("-", "_")
    project = root / distribution
    package = project / module
    package.mkdir(parents=True, exist_ok=True)
    (project / "pyproject.toml").write_text(
        _PYPROJECT.format(
            distribution=distribution,
            version=version,
            entry_point=entry_point or distribution,
            module=module,
        )
    )
    (package / "__init__.py").write_text(textwrap.dedent(source))
    return project


def build_wheel(project: Path, into: Path, *, timeout: float = 900) -> Path:
    """Build the wheel of the project at ``project`` (without its dependencies) into
    ``into`` with ``pip wheel``, and return the wheel's path.

    Raises:
        RuntimeError: When pip fails (its error output is in the message).
    """
    into.mkdir(parents=True, exist_ok=True)
    before = set(into.glob("*.whl"))
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(into), str(project)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    new = set(into.glob("*.whl")) - before
    if built.returncode != 0 or len(new) != 1:
        raise RuntimeError(f"pip wheel {project} failed: {built.stderr.strip()}")
    return new.pop()
