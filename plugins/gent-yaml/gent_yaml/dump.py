"""Write tool results as YAML: block style for multi-line text, keys in their order."""

from __future__ import annotations

from typing import Any

import yaml

from gent_core.bounds import to_jsonable

__all__ = ["dump_yaml"]

_WIDTH = 1_000_000  # never fold long lines


_SafeDumper: type[yaml.SafeDumper] = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class _ResultDumper(_SafeDumper):  # type: ignore[valid-type,misc]
    """A safe dumper (libyaml's emitter when available) writing multi-line strings as ``|``
    blocks and never using aliases.
    """

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _represent_str(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    style = "|" if "\n" in data else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_ResultDumper.add_representer(str, _represent_str)


def dump_yaml(value: Any) -> str:
    """Write ``value`` as YAML (pydantic models, dataclasses, dates... converted first).

    Multi-line strings are written as literal blocks (``|``) when YAML allows it, keys keep
    their order, non-ASCII text is kept, and no trailing newline or end marker is written.

    Raises:
        ValueError: When ``value`` nests too deeply to be converted (probably cyclic).
    """
    if value is None or isinstance(value, (bool, int)):
        return "null" if value is None else str(value).lower()
    text = yaml.dump(
        to_jsonable(value),
        Dumper=_ResultDumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=_WIDTH,
    )
    if text.endswith("\n...\n"):
        text = text[: -len("...\n")]
    return text.rstrip("\n")
