"""The built-in agent configuration, used when no config file is given.

It is one YAML file shipped in the package (``gent_core/_config/default_agent.yaml``), loaded
like any other config: ``gent run TASK`` and ``gent describe`` use it when there is neither a
CONFIG argument nor a ``gent.yaml`` in the current directory, ``gent eval`` evaluates it
without a CONFIG, and ``gent run --help`` shows it.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gent_core._config.loading import LoadedConfig

__all__ = ["DEFAULT_AGENT_SOURCE", "default_agent_yaml", "default_config"]

DEFAULT_AGENT_SOURCE = "<default agent>"
"""The source name of the built-in config, as messages show it."""


@functools.cache
def default_agent_yaml() -> str:
    """The text of the built-in agent config (comments included)."""
    return resources.files("gent_core._config").joinpath("default_agent.yaml").read_text("utf-8")


def default_config() -> LoadedConfig:
    """The built-in agent config, loaded (relative paths resolve against the current
    directory).
    """
    from gent_core._config.loading import parse_config

    return parse_config(default_agent_yaml(), source=DEFAULT_AGENT_SOURCE)
