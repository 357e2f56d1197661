"""Write throwaway plugin distributions to disk: for tests and benchmarks of plugin discovery."""

from __future__ import annotations

import textwrap
from pathlib import Path

__all__ = ["write_plugin_project"]

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
