"""The configurations an evaluation compares: config files x matrix overrides.

``--matrix format=xml,markdown --matrix toolchain=json,yaml`` is four override sets, applied
on top of each config file; a key is dotted (``model.temperature=0.2``) and a component
written by name alone becomes a mapping when an option of it is set (``model: llamacpp`` +
``model.temperature=0.2`` -> ``model: {name: llamacpp, temperature: 0.2}``). Values are read
as YAML scalars (``0.2`` is a number, ``true`` a boolean), and a value holding commas is
bracketed or quoted: ``--matrix 'tools=[calculator],[calculator,current_time]'``.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from gent_core.config.describe import problems_from_validation_error
from gent_core.config.loading import LoadedConfig, parse_config
from gent_core.config.models import AgentConfig
from gent_core.config.yamldoc import KeyPath
from gent_core.errors import ConfigError, ConfigProblem, Location

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

DEFAULT_CONFIG = """\
model: llamacpp
format: xml
toolchain: json
termination: text
tools: [calculator, current_time]
"""
"""The agent evaluated when no config file is given: the bundled local model, ``xml`` x
``json``, plain-text answers, the basic tools (a suite's ``tools`` replace them)."""

_KEY = re.compile(r"^[A-Za-z_][\w-]*(\.([A-Za-z_][\w-]*|\d+))*$")


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


def default_config() -> LoadedConfig:
    """The built-in agent config (see :data:`DEFAULT_CONFIG`)."""
    return parse_config(DEFAULT_CONFIG, source="<default agent>")


def show_value(value: Any) -> str:
    """A value as written on a command line (``xml``, ``0.2``, ``[calculator]``)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple):
        return "[" + ",".join(show_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{key}: {show_value(item)}" for key, item in value.items()) + "}"
    return json.dumps(value, ensure_ascii=False)


def _split(text: str) -> list[str]:
    """Split on commas outside brackets, braces and quotes."""
    parts: list[str] = []
    depth = 0
    quote = ""
    current: list[str] = []
    for char in text:
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth = max(depth - 1, 0)
        elif char == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    parts.append("".join(current))
    return parts


def _scalar(text: str) -> Any:
    text = text.strip()
    try:
        return yaml.safe_load(text) if text else ""
    except yaml.YAMLError:
        return text


def parse_assignment(text: str) -> tuple[str, list[Any]]:
    """Read ``key=v1,v2,...`` into the dotted key and its values.

    Raises:
        ValueError: When there is no ``=``, the key is not a dotted name, or a value is empty.
    """
    key, equals, values = text.partition("=")
    key = key.strip()
    if not equals:
        raise ValueError(f"expected KEY=VALUE[,VALUE...], got {text!r}")
    if not _KEY.match(key):
        raise ValueError(
            f"expected a config key such as 'format' or 'model.temperature', got {key!r}"
        )
    pieces = _split(values)
    if any(not piece.strip() for piece in pieces):
        raise ValueError(f"empty value in {text!r}")
    return key, [_scalar(piece) for piece in pieces]


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


def _path(key: str) -> KeyPath:
    return tuple(int(part) if part.isdigit() else part for part in key.split("."))


def _set(data: dict[str, Any], path: KeyPath, value: Any) -> str | None:
    """Set ``value`` at ``path`` inside ``data``; return a problem, or ``None``."""
    node: Any = data
    for depth, part in enumerate(path[:-1]):
        if isinstance(node, dict) and isinstance(part, str):
            child = node.get(part)
            if isinstance(child, str):  # a component by name: becomes {name: ...}
                child = {"name": child}
            elif child is None:
                child = {}
            node[part] = child
            node = child
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            child = node[part]
            if isinstance(child, str):
                child = {"name": child}
                node[part] = child
            node = child
        else:
            where = ".".join(str(item) for item in path[: depth + 1])
            return f"cannot set {'.'.join(map(str, path))}: {where} is not a mapping or list item"
    last = path[-1]
    dotted = ".".join(map(str, path))
    if not isinstance(node, dict | list):
        where = ".".join(str(item) for item in path[:-1])
        return f"cannot set {dotted}: {where} is not a mapping or list item"
    in_dict = isinstance(node, dict) and isinstance(last, str)
    in_list = isinstance(node, list) and isinstance(last, int) and last < len(node)
    if not (in_dict or in_list):
        return f"cannot set {dotted}: no such key or list item"
    node[last] = value  # type: ignore[index]
    return None


def apply_overrides(
    loaded: LoadedConfig, overrides: Mapping[str, Any], *, origin: str = "--matrix"
) -> LoadedConfig:
    """``loaded`` with ``overrides`` (dotted key -> value) applied and validated again.

    Args:
        loaded: The configuration.
        overrides: The keys to set.
        origin: What set them, for messages (``--matrix``, ``task 'divide'``).

    Raises:
        ConfigError: When a key cannot be set or a value is invalid, naming the key and the
            origin.
    """
    if not overrides:
        return loaded
    data = loaded.config.model_dump(mode="json")
    problems: list[ConfigProblem] = []
    config: AgentConfig | None = None
    for key, value in overrides.items():
        problem = _set(data, _path(key), value)
        if problem is not None:
            problems.append(ConfigProblem(f"{problem} (set by {origin})", Location(key=key)))
    if not problems:
        try:
            config = AgentConfig.model_validate(data, context={"base_dir": loaded.base_dir})
        except ValidationError as error:
            found = problems_from_validation_error(
                error, AgentConfig.model_json_schema(), is_secret=loaded.is_secret
            )
            for path, message in found:
                key = ".".join(str(part) for part in path)
                problems.append(
                    ConfigProblem(
                        f"{message} (set by {origin})", Location(file=loaded.source, key=key)
                    )
                )
    if problems or config is None:
        raise ConfigError(problems=problems)
    changed = [_path(key) for key in overrides]
    marks = {
        path: mark
        for path, mark in loaded.marks.items()
        if not any(path[: len(prefix)] == prefix for prefix in changed)
    }
    config.attach_secrets(loaded.secrets)
    return dataclasses.replace(loaded, config=config, marks=marks)


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
