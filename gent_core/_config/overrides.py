"""Changing keys of a loaded configuration from outside its file: flags, matrices, suites.

One mechanism serves every caller: ``gent run``/``gent describe`` flags (``--model``,
``--format``, ``--toolchain``, ``-T``, ``--no-tools``, ``--option key=value``), ``gent eval
--matrix key=v1,v2`` and a suite task's own settings. Each change is an :class:`Override`:

* a key is **dotted** (``model.temperature``, ``tools.0``); a component written by name alone
  becomes a mapping when an option of it is set (``model: llamacpp`` +
  ``model.temperature=0.2`` -> ``model: {name: llamacpp, temperature: 0.2}``);
* values written on a command line are read as **YAML scalars** (``0.2`` is a number,
  ``true`` a boolean, ``[a, b]`` a list, anything else a string);
* overrides apply **in order** (a later one sees what an earlier one set), then the whole
  configuration is validated again, once;
* a problem names the key and **what set it** (``--option max_steps=0``), never a line of the
  file, and the overridden keys remember their origin (:meth:`LoadedConfig.origin_of`), so
  building the components later (an unknown plugin name, a bad option) says it too.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from gent_core._bounded import read_yaml
from gent_core._config.loading import LoadedConfig, format_key
from gent_core._config.models import AgentConfig
from gent_core._config.problems import problems_from_validation_error
from gent_core._config.secrets import credential_values
from gent_core._config.yamldoc import KeyPath
from gent_core.errors import ConfigError, ConfigProblem, InputSyntaxError, Location

__all__ = [
    "Override",
    "apply_overrides",
    "key_path",
    "parse_assignment",
    "parse_setting",
    "read_scalar",
    "set_config_key",
    "show_value",
]

_KEY = re.compile(r"^[A-Za-z_][\w-]*(\.([A-Za-z_][\w-]*|\d+))*$")

ACCEPTED_KEY = "a config key such as 'format', 'max_steps' or 'model.temperature'"
"""How an override's key is written, for error messages."""


@dataclass(frozen=True)
class Override:
    """One change to a configuration.

    Attributes:
        key: The dotted key (``max_steps``, ``model.temperature``, ``tools.0``).
        value: The new value (plain data, as YAML would give it).
        origin: What set it, for messages (``--option max_steps=4``, ``-T calculator``).
        update: When given, computes the value from the key's current value (``None`` when
            the key is unset); ``value`` is then ignored. ``-T`` uses it to extend the tools.
    """

    key: str
    value: Any = None
    origin: str = "the command line"
    update: Callable[[Any], Any] | None = None

    @property
    def path(self) -> KeyPath:
        """The key as a path (``("model", "temperature")``)."""
        return key_path(self.key)


def key_path(key: str) -> KeyPath:
    """``"tools.0.name"`` -> ``("tools", 0, "name")``."""
    return tuple(int(part) if part.isdigit() else part for part in key.split("."))


def show_value(value: Any) -> str:
    """A value as written on a command line (``xml``, ``0.2``, ``[calculator]``)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple):
        return "[" + ",".join(show_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{key}: {show_value(item)}" for key, item in value.items()) + "}"
    return json.dumps(value, ensure_ascii=False)


def read_scalar(text: str, source: str = "the value") -> Any:
    """Read a command-line value as YAML: ``0.2`` -> 0.2, ``true`` -> True, ``[a, b]`` -> a
    list, ``''`` -> the empty string; text that is not valid YAML stays the text.

    The value is read within gent's bounds (:func:`gent_core._bounded.read_yaml`).

    Args:
        text: The value as written.
        source: What the value is, for messages (``"the value of max_steps"``).

    Raises:
        InputBoundsError: The value nests too deeply, has an integer of too many digits or
            a number that is not finite.
    """
    text = text.strip()
    try:
        return read_yaml(text, source=source) if text else ""
    except InputSyntaxError:
        return text


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


def _checked_key(text: str, form: str) -> tuple[str, str]:
    key, equals, value = text.partition("=")
    key = key.strip()
    if not equals:
        raise ValueError(f"expected {form}, got {text!r}")
    if not _KEY.match(key):
        raise ValueError(f"expected {ACCEPTED_KEY}, got {key!r}")
    return key, value


def parse_setting(text: str) -> tuple[str, Any]:
    """Read ``key=value`` (``--option``) into the dotted key and its value (a YAML scalar;
    commas are part of the value: ``prompt.append=a, b``).

    Raises:
        ValueError: When there is no ``=`` or the key is not a dotted name.
        InputBoundsError: When the value is beyond gent's bounds (see :func:`read_scalar`).
    """
    key, value = _checked_key(text, "KEY=VALUE")
    return key, read_scalar(value, f"the value of {key}")


def parse_assignment(text: str) -> tuple[str, list[Any]]:
    """Read ``key=v1,v2,...`` (``--matrix``) into the dotted key and its values; a value
    holding commas is bracketed or quoted (``tools=[a,b],[a]``, ``prompt.append='a, b',c``).

    Raises:
        ValueError: When there is no ``=``, the key is not a dotted name, or a value is empty.
        InputBoundsError: When a value is beyond gent's bounds (see :func:`read_scalar`).
    """
    key, values = _checked_key(text, "KEY=VALUE[,VALUE...]")
    pieces = _split(values)
    if any(not piece.strip() for piece in pieces):
        raise ValueError(f"empty value in {text!r}")
    return key, [read_scalar(piece, f"a value of {key}") for piece in pieces]


def _named(value: Any) -> Any:
    return {"name": value} if isinstance(value, str) else value


def _get(data: Any, path: KeyPath) -> Any:
    node = data
    for part in path:
        if isinstance(node, dict) and isinstance(part, str):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            return None
    return node


def _set(data: dict[str, Any], path: KeyPath, value: Any) -> str | None:
    """Set ``value`` at ``path`` inside ``data``; return a problem, or ``None``."""
    node: Any = data
    dotted = format_key(path)
    for depth, part in enumerate(path[:-1]):
        if isinstance(node, dict) and isinstance(part, str):
            child = node.get(part)
            child = {} if child is None else _named(child)  # a component by name: {name: ...}
            node[part] = child
            node = child
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            child = node[part] = _named(node[part])
            node = child
        else:
            where = format_key(path[: depth + 1])
            return f"cannot set {dotted}: {where} is not a mapping or list item"
    last = path[-1]
    if not isinstance(node, dict | list):
        return f"cannot set {dotted}: {format_key(path[:-1])} is not a mapping or list item"
    in_dict = isinstance(node, dict) and isinstance(last, str)
    in_list = isinstance(node, list) and isinstance(last, int) and last < len(node)
    if not (in_dict or in_list):
        return f"cannot set {dotted}: no such key or list item"
    node[last] = value  # type: ignore[index]
    return None


def set_config_key(data: dict[str, Any], key: str, value: Any) -> None:
    """Set the dotted ``key`` to ``value`` in a config file's raw data (what ``yaml.safe_load``
    reads), as an override sets it: a component written by name alone becomes a mapping when
    an option of it is set (``model: llamacpp`` + ``model.seed`` -> ``{name: llamacpp, seed:
    ...}``). Nothing is validated: parse the result as a config to check it.

    Raises:
        ValueError: When the key is not a dotted name, or cannot be set in ``data`` (a part
            above it is not a mapping or list item).
    """
    problem = _set(data, key_path(key), value)
    if problem is not None:
        raise ValueError(problem)


def _origin_for(path: KeyPath, applied: list[Override], fallback: str) -> str:
    """What set the value at ``path``: the last override on it, above it or below it."""
    for override in reversed(applied):
        other = override.path
        if path[: len(other)] == other or other[: len(path)] == path:
            return override.origin
    return fallback


def apply_overrides(
    loaded: LoadedConfig,
    overrides: Mapping[str, Any] | Iterable[Override],
    *,
    origin: str = "--matrix",
) -> LoadedConfig:
    """``loaded`` with ``overrides`` applied in order and validated again.

    Args:
        loaded: The configuration.
        overrides: :class:`Override` objects, or a mapping of dotted keys to values (all set
            by ``origin``).
        origin: What set the values of a mapping (``--matrix format=xml``, ``task 'divide'``).

    Returns:
        A new configuration (``loaded`` is untouched) whose overridden keys report their
        origin (:meth:`LoadedConfig.origin_of`) instead of a line of the file.

    Raises:
        ConfigError: Every key that cannot be set and every invalid value, each naming the
            key and what set it.
    """
    if isinstance(overrides, Mapping):
        changes = [Override(key, value, origin) for key, value in overrides.items()]
    else:
        changes = list(overrides)
    if not changes:
        return loaded
    data = loaded.config.model_dump(mode="json")
    applied, problems = _set_all(data, changes)
    config: AgentConfig | None = None
    try:  # also when some key could not be set: every problem is reported at once
        config = AgentConfig.model_validate(data, context={"base_dir": loaded.base_dir})
    except ValidationError as error:
        found = problems_from_validation_error(
            error, AgentConfig.model_json_schema(), is_secret=loaded.is_secret
        )
        for path, message in found:
            by = _origin_for(path, applied, origin)
            problems.append(
                ConfigProblem(f"{message} (set by {by})", Location(key=format_key(path)))
            )
    if problems or config is None:
        raise ConfigError(problems=list(dict.fromkeys(problems)))
    return _with_config(loaded, config, applied)


def _set_all(
    data: dict[str, Any], changes: list[Override]
) -> tuple[list[Override], list[ConfigProblem]]:
    """Set each change in ``data``, in order: the changes applied, and a problem (naming
    what set it) for each key that cannot be set.
    """
    problems: list[ConfigProblem] = []
    applied: list[Override] = []
    for change in changes:
        path = change.path
        value = change.update(_get(data, path)) if change.update is not None else change.value
        problem = _set(data, path, value)
        if problem is not None:
            problems.append(
                ConfigProblem(f"{problem} (set by {change.origin})", Location(key=change.key))
            )
        else:
            applied.append(change)
    return applied, problems


def _with_config(
    loaded: LoadedConfig, config: AgentConfig, applied: list[Override]
) -> LoadedConfig:
    """``loaded`` with the validated ``config``: the overridden keys report their origin
    instead of a line of the file, and credentials set from outside count as secrets.
    """
    origins = dict(loaded.origins)
    for change in applied:  # in order: the latest origin of a key comes last
        origins.pop(change.path, None)
        origins[change.path] = change.origin
    marks = {
        path: mark
        for path, mark in loaded.marks.items()
        if not any(path[: len(change.path)] == change.path for change in applied)
    }
    # a credential set from outside the file (-o model.api_key=...) is one too
    secrets = loaded.secrets | frozenset(credential_values(config.model_dump(mode="json")))
    config.attach_secrets(secrets)
    return dataclasses.replace(loaded, config=config, secrets=secrets, marks=marks, origins=origins)
