"""The configurations an evaluation compares: config files x matrix overrides.

``--matrix format=xml,markdown --matrix toolchain=json,yaml`` is four override sets, applied
on top of each config file by the configuration's own override mechanism
(:func:`gent_core.apply_overrides`, shared with ``gent run --option``): a key is dotted
(``model.temperature=0.2``), values are read as YAML scalars, and a value holding commas is
bracketed or quoted: ``--matrix 'tools=[calculator],[calculator,current_time]'``.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gent_core import LoadedConfig, apply_overrides, default_config
from gent_core.config import default_agent_yaml, parse_assignment, show_value
from gent_core.errors import ConfigError, ConfigProblem

__all__ = [
    "DEFAULT_CONFIG",
    "Configuration",
    "apply_overrides",
    "build_configurations",
    "default_config",
    "expand_matrix",
    "parse_assignment",
    "show_value",
]

DEFAULT_CONFIG = default_agent_yaml()
"""The agent evaluated when no config file is given (the built-in agent of
:func:`gent_core.default_config`; a suite's ``tools`` replace its tools)."""


@dataclass(frozen=True)
class Configuration:
    """One configuration under evaluation.

    Attributes:
        label: A short unique name (``calculator format=xml toolchain=json``).
        loaded: The configuration, overrides applied.
        overrides: The matrix overrides (dotted key -> value), in order.
        source: The config file (``<default agent>`` for the built-in one).
    """

    label: str
    loaded: LoadedConfig
    overrides: Mapping[str, Any]
    source: str

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (secrets masked)."""
        return {
            "label": self.label,
            "source": self.source,
            "overrides": {key: _jsonable(value) for key, value in self.overrides.items()},
            "config": self.loaded.redacted_dict(),
        }


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def expand_matrix(axes: Sequence[tuple[str, Sequence[Any]]]) -> list[dict[str, Any]]:
    """Every combination of the axes' values, the first axis varying slowest.

    ``[("format", ["xml", "markdown"]), ("toolchain", ["json", "yaml"])]`` gives four
    override sets; no axes give one empty set.
    """
    keys = [key for key, _ in axes]
    return [
        dict(zip(keys, values, strict=True))
        for values in itertools.product(*(list(values) for _, values in axes))
    ]


def build_configurations(
    configs: Sequence[tuple[str, LoadedConfig]],
    axes: Sequence[tuple[str, Sequence[Any]]] = (),
) -> list[Configuration]:
    """Every config file under every combination of the matrix.

    Args:
        configs: ``(source, loaded config)`` pairs, in order.
        axes: The matrix: ``(dotted key, values)`` pairs.

    Raises:
        ConfigError: When an override cannot be applied (every problem at once).
    """
    combinations = expand_matrix(axes)
    stems = [Path(source).stem for source, _ in configs]
    ambiguous = len(set(stems)) < len(stems)
    result: list[Configuration] = []
    problems: list[ConfigProblem] = []
    for (source, loaded), stem in zip(configs, stems, strict=True):
        name = source if ambiguous else stem
        for overrides in combinations:
            shown = " ".join(f"{key}={show_value(value)}" for key, value in overrides.items())
            origin = f"--matrix {shown}" if shown else "--matrix"
            try:
                configured = apply_overrides(loaded, overrides, origin=origin)
            except ConfigError as error:
                problems.extend(error.problems)
                continue
            parts = [name] if len(configs) > 1 or not shown else []
            label = " ".join([*parts, shown]) if shown else name
            result.append(Configuration(label, configured, dict(overrides), source))
    if problems:
        unique = list(dict.fromkeys(problems))
        raise ConfigError(problems=unique)
    return result
