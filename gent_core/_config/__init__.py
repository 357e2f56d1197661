"""Agent configuration: a YAML file naming plugins, validated, with secrets kept out of logs.

::

    from gent_core._config import build_components, load_config

    loaded = load_config("agent.yaml")          # ConfigError names file, line and key
    components = build_components(loaded, registry)
    log(loaded.redact(text))                     # credentials (8+ characters) become ***

``apply_overrides`` changes keys from outside the file (command-line flags, ``gent eval
--matrix``); ``default_config()`` is the built-in agent. See ``docs/configuration.md`` for
every key, ``${ENV_VAR}`` expansion and how errors look.
"""

from __future__ import annotations

from gent_core._config.build import Components, build_components
from gent_core._config.default import default_config
from gent_core._config.loading import LoadedConfig, format_key, load_config, parse_config
from gent_core._config.models import (
    AgentConfig,
    ApprovalConfig,
    ComponentSpec,
    LimitsConfig,
    PromptConfig,
    TimeoutsConfig,
)
from gent_core._config.options import validate_options
from gent_core._config.overrides import Override, apply_overrides
from gent_core._config.secrets import MASK, is_secret_key
from gent_core.errors import ConfigError, ConfigProblem, Location

__all__ = [
    "MASK",
    "AgentConfig",
    "ApprovalConfig",
    "ComponentSpec",
    "Components",
    "ConfigError",
    "ConfigProblem",
    "LimitsConfig",
    "LoadedConfig",
    "Location",
    "Override",
    "PromptConfig",
    "TimeoutsConfig",
    "apply_overrides",
    "build_components",
    "default_config",
    "format_key",
    "is_secret_key",
    "load_config",
    "parse_config",
    "validate_options",
]
