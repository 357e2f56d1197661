"""A configuration recorded in a transcript, rebuilt to resume the run it describes.

A transcript's header records the run's whole configuration (after flags and ``${VAR}``
expansion) with every secret masked as ``***``, and the config file the run came from, if
any. :func:`config_from_record` rebuilds it:

* nothing masked: the recorded configuration is used as it is (flags given at the time
  included), whatever the config file says now;
* secrets masked: they are taken from the recorded config file, read again now (so ``${VAR}``
  references take the current environment); each masked value must still be the one the run
  used, as far as can be compared through the mask (``"Bearer ***"``), else the file changed
  and the run cannot be rebuilt from it;
* secrets masked and no config file recorded (or it is gone): a :class:`ConfigError` naming
  the masked keys and the file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from gent_core._config.loading import LoadedConfig, format_key, load_config, parse_config
from gent_core._config.secrets import MASK
from gent_core._config.yamldoc import KeyPath
from gent_core._path_probe import probe_path
from gent_core.errors import ConfigError, ConfigProblem, Location

__all__ = ["config_from_record"]

_MISSING = object()


def _masked_paths(value: Any, path: KeyPath = ()) -> list[KeyPath]:
    """Key paths of the strings in ``value`` that hold a mask."""
    if isinstance(value, Mapping):
        return [found for key, item in value.items() for found in _masked_paths(item, (*path, key))]
    if isinstance(value, list):
        return [
            found
            for index, item in enumerate(value)
            for found in _masked_paths(item, (*path, index))
        ]
    return [path] if isinstance(value, str) and MASK in value else []


def _at(value: Any, path: KeyPath) -> Any:
    for part in path:
        found = (isinstance(part, int) and isinstance(value, list) and 0 <= part < len(value)) or (
            isinstance(part, str) and isinstance(value, Mapping) and part in value
        )
        if not found:
            return _MISSING
        value = value[part]
    return value


def _put(value: Any, path: KeyPath, item: Any) -> Any:
    """A copy of ``value`` with ``item`` at ``path`` (which exists)."""
    if not path:
        return item
    head, rest = path[0], path[1:]
    if isinstance(value, list):
        assert isinstance(head, int)
        return [_put(old, rest, item) if index == head else old for index, old in enumerate(value)]
    assert isinstance(value, Mapping)
    return {key: _put(old, rest, item) if key == head else old for key, old in value.items()}


def _escaped(value: Any) -> Any:
    """``value`` with every ``${`` written ``$${``, so reading it again expands nothing."""
    if isinstance(value, str):
        return value.replace("${", "$${")
    if isinstance(value, Mapping):
        return {key: _escaped(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_escaped(item) for item in value]
    return value


def _problem(message: str, source: str, key: KeyPath | None = None) -> ConfigError:
    location = Location(file=source, key=format_key(key) if key else None)
    return ConfigError(problems=[ConfigProblem(message, location)])


def _unmasked(
    recorded: Mapping[str, Any], masked: list[KeyPath], config_file: str | None, source: str
) -> tuple[Any, frozenset[str]]:
    """``recorded`` with its masked values taken from ``config_file`` read now, and that
    file's secrets.
    """
    keys = ", ".join(repr(format_key(path)) for path in masked[:5])
    more = f" and {len(masked) - 5} more" if len(masked) > 5 else ""
    if config_file is None:
        raise _problem(
            f"its secret values were masked ({keys}{more}) and the run did not come from a "
            "config file to read them from again",
            source,
        )
    if not probe_path(config_file).is_file:
        raise _problem(
            f"its secret values were masked ({keys}{more}) and the config file the run came "
            f"from, {config_file}, to read them from again, is gone",
            source,
        )
    current = load_config(config_file)
    plain = current.config.model_dump(mode="json")
    shown = current.redacted_dict()
    data: Any = recorded
    for path in masked:
        value = _at(plain, path)
        if value is _MISSING or _at(shown, path) != _at(recorded, path):
            raise _problem(
                f"its secret value at {format_key(path)!r} was masked, and the config file the "
                f"run came from, {config_file}, no longer gives it the value the run used (the "
                "file changed since the run)",
                source,
                path,
            )
        data = _put(data, path, value)
    return data, current.secrets


def config_from_record(
    recorded: Mapping[str, Any],
    *,
    config_file: str | os.PathLike[str] | None = None,
    source: str = "<recorded configuration>",
) -> LoadedConfig:
    """Rebuild the configuration a transcript recorded (see the module docstring).

    Args:
        recorded: The header's ``config``: a configuration as
            :meth:`LoadedConfig.redacted_dict` writes it.
        config_file: The header's ``config_file``: the file the run came from, if any.
        source: Where ``recorded`` comes from, for messages (``transcript run.jsonl``).

    Returns:
        The configuration, with the config file's secrets (so they stay masked).

    Raises:
        ConfigError: When secrets were masked and cannot be taken from the config file, or
            the recorded configuration is not valid (any more).
    """
    file = os.fspath(config_file) if config_file is not None else None
    masked = _masked_paths(recorded)
    data: Any = recorded
    secrets: frozenset[str] = frozenset()
    if masked:
        data, secrets = _unmasked(recorded, masked, file, source)
    base = Path(file).resolve().parent if file is not None else None
    if base is None:
        directory = recorded.get("working_directory")
        base = Path(directory) if isinstance(directory, str) and directory else Path.cwd()
    loaded = parse_config(json.dumps(_escaped(data)), source=source, base_dir=base, environ={})
    if secrets:
        loaded = replace(loaded, secrets=loaded.secrets | secrets)
        loaded.config.attach_secrets(loaded.secrets)
    return loaded
