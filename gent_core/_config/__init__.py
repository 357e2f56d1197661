"""Agent configuration: a YAML file naming plugins, validated, with secrets kept out of logs.

::

    from gent_core._config import build_components, load_config

    loaded = load_config("agent.yaml")          # ConfigError names file, line and key
    components = build_components(loaded, registry)
    log(loaded.redact(text))                     # credentials (8+ characters) become ***

``apply_overrides`` changes keys from outside the file (command-line flags, ``gent eval
--matrix``); ``default_config()`` is the built-in agent. See ``docs/configuration.md`` for
every key, ``${ENV_VAR}`` expansion and how errors look.

Names load lazily (as in :mod:`gent_core`), so reading one module of the package (the
built-in agent's text for ``gent run --help``) does not build the pydantic models.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core._lazy import export_names, load_export

_EXPORTS: dict[str, str] = {
    "Components": "gent_core._config.build",
    "build_components": "gent_core._config.build",
    "default_config": "gent_core._config.default",
    "LoadedConfig": "gent_core._config.loading",
    "format_key": "gent_core._config.loading",
    "load_config": "gent_core._config.loading",
    "parse_config": "gent_core._config.loading",
    "AgentConfig": "gent_core._config.models",
    "ApprovalConfig": "gent_core._config.models",
    "ComponentSpec": "gent_core._config.models",
    "LimitsConfig": "gent_core._config.models",
    "PromptConfig": "gent_core._config.models",
    "TimeoutsConfig": "gent_core._config.models",
    "validate_options": "gent_core._config.options",
    "Override": "gent_core._config.overrides",
    "apply_overrides": "gent_core._config.overrides",
    "MASK": "gent_core._config.secrets",
    "is_secret_key": "gent_core._config.secrets",
    "ConfigError": "gent_core.errors",
    "ConfigProblem": "gent_core.errors",
    "Location": "gent_core.errors",
}

if TYPE_CHECKING:
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


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())
