"""The configuration API: load a config, override its keys, describe it.

* **load**: :func:`load_config` (a file), :func:`parse_config` (text),
  :func:`default_config` and its YAML :func:`default_agent_yaml`, giving a
  :class:`LoadedConfig` (an :class:`AgentConfig` with where each key was written);
* **override**: ``KEY=VALUE`` assignments (:func:`parse_assignment`), applied as
  ``gent run --option`` does (:func:`apply_overrides`), or set in a file's data
  (:func:`set_config_key`);
* **describe**: a value and a key as error messages show them (:func:`show_value`,
  :func:`format_key`), and the problems a config error lists, so that a YAML file of another
  application reads and reports like a config (:func:`read_config_document`, whose
  document marks the line and column of each key path;
  :func:`problems_from_validation_error`, :func:`unknown_problem`);
* **entries**: a config's ``tools`` entries, as written (:data:`ToolEntry`, which validates
  one) and validated (:data:`ToolSpec`), and a component's options model
  (:func:`parse_options_model`);
* **python objects** a config names as ``module:name``, imported from given folders
  (:func:`import_object`, :func:`import_search_path`).

Names load lazily; importing this module loads no configuration code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core._lazy import export_names, load_export

_EXPORTS: dict[str, str] = {
    # load
    "AgentConfig": "gent_core._config",
    "LoadedConfig": "gent_core._config",
    "load_config": "gent_core._config",
    "parse_config": "gent_core._config",
    "default_config": "gent_core._config",
    "default_agent_yaml": "gent_core._config.default",
    # override
    "apply_overrides": "gent_core._config",
    "parse_assignment": "gent_core._config.overrides",
    "set_config_key": "gent_core._config.overrides",
    # describe
    "show_value": "gent_core._config.overrides",
    "format_key": "gent_core._config.loading",
    "problems_from_validation_error": "gent_core._config.problems",
    "unknown_problem": "gent_core._config.problems",
    "read_config_document": "gent_core._config.loading",
    # entries
    "ToolEntry": "gent_core._config.models",
    "ToolSpec": "gent_core._config.models",
    "parse_options_model": "gent_core._config.options",
    # python objects named in a config (``module:name``, from the config's folders)
    "import_object": "gent_core._importing",
    "import_search_path": "gent_core._importing",
}

if TYPE_CHECKING:
    from gent_core._config import (
        AgentConfig,
        LoadedConfig,
        apply_overrides,
        default_config,
        load_config,
        parse_config,
    )
    from gent_core._config.default import (
        default_agent_yaml,
    )
    from gent_core._config.loading import (
        format_key,
        read_config_document,
    )
    from gent_core._config.models import (
        ToolEntry,
        ToolSpec,
    )
    from gent_core._config.options import (
        parse_options_model,
    )
    from gent_core._config.overrides import (
        parse_assignment,
        set_config_key,
        show_value,
    )
    from gent_core._config.problems import (
        problems_from_validation_error,
        unknown_problem,
    )
    from gent_core._importing import (
        import_object,
        import_search_path,
    )

__all__ = [
    "AgentConfig",
    "LoadedConfig",
    "ToolEntry",
    "ToolSpec",
    "apply_overrides",
    "default_agent_yaml",
    "default_config",
    "format_key",
    "import_object",
    "import_search_path",
    "load_config",
    "parse_assignment",
    "parse_config",
    "parse_options_model",
    "problems_from_validation_error",
    "read_config_document",
    "set_config_key",
    "show_value",
    "unknown_problem",
]


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())
