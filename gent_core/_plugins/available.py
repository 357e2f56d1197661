"""gent's own plugin distributions, installed or not: what each one supplies.

The index is data (``available.json`` beside this module), generated from the packages under
``plugins/`` by ``tools/gen_plugin_index.py`` and checked against them by a test, so it never
names a component that its distribution does not register. It answers two questions without
importing any plugin:

* ``gent plugins --available``: which distributions exist, and which are installed;
* an unknown tool, format, chain, model or command: which distribution supplies it, and the
  command that installs it (:func:`install_hint`).

The file ships inside ``gent_core``; a damaged or missing one gives an empty index (the hint
is then left out), never an error.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

__all__ = [
    "INDEX_FILE",
    "AvailablePlugin",
    "available_plugins",
    "install_hint",
    "installed",
    "supplier",
]

INDEX_FILE = "available.json"
"""The index's file name, in the ``gent_core._plugins`` package."""

_MAX_INDEX_BYTES = 1_000_000


@dataclass(frozen=True)
class AvailablePlugin:
    """One of gent's own plugin distributions.

    Attributes:
        distribution: The distribution's name (``"gent-tools-files"``).
        plugin: Its entry-point name in the ``gent`` group (``"files"``).
        summary: The distribution's one-line description.
        folder: Its folder in a checkout of gent (``"plugins/gent-tools-files"``).
        supplies: ``{kind: (name, ...)}``: the components it registers.
    """

    distribution: str
    plugin: str
    summary: str
    folder: str
    supplies: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The entry as JSON-ready data (the index file's shape)."""
        return {
            "distribution": self.distribution,
            "plugin": self.plugin,
            "summary": self.summary,
            "folder": self.folder,
            "supplies": {kind: list(names) for kind, names in self.supplies.items()},
        }

    def install_command(self) -> str:
        """How to install it: from a checkout of gent (nothing is on PyPI yet)."""
        return f"gent install ./{self.folder}"


def _entry(data: object) -> AvailablePlugin | None:
    if not isinstance(data, dict):
        return None
    texts = [data.get(key) for key in ("distribution", "plugin", "summary", "folder")]
    supplies = data.get("supplies")
    if not all(isinstance(text, str) for text in texts) or not isinstance(supplies, dict):
        return None
    kinds: dict[str, tuple[str, ...]] = {}
    for kind, names in supplies.items():
        if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
            return None
        kinds[str(kind)] = tuple(names)
    distribution, plugin, summary, folder = (str(text) for text in texts)
    return AvailablePlugin(distribution, plugin, summary, folder, kinds)


@lru_cache(maxsize=1)
def available_plugins() -> tuple[AvailablePlugin, ...]:
    """Every distribution in the index, sorted by name; empty when the file is missing or
    damaged.
    """
    try:
        with resources.files(__package__).joinpath(INDEX_FILE).open("rb") as file:
            raw = file.read(_MAX_INDEX_BYTES + 1)
        data = json.loads(raw) if len(raw) <= _MAX_INDEX_BYTES else None
    except (OSError, ValueError):
        return ()
    entries = data.get("distributions") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return ()
    parsed = [_entry(item) for item in entries]
    return tuple(sorted((e for e in parsed if e is not None), key=lambda e: e.distribution))


def supplier(kind: str, name: str) -> AvailablePlugin | None:
    """The distribution of the index that supplies the ``kind`` component ``name`` (a
    qualified ``plugin:name`` is matched on both parts), or ``None``.
    """
    plugin, _, component = name.rpartition(":")
    for entry in available_plugins():
        if component in entry.supplies.get(kind, ()) and plugin in ("", entry.plugin):
            return entry
    return None


def install_hint(kind: str, name: str) -> str | None:
    """``"'read_file' comes with gent-tools-files (not installed); from a checkout of gent:
    gent install ./plugins/gent-tools-files"``, or ``None`` when no distribution of the index
    supplies it or the one that does is installed (then something else is wrong: disabled,
    failed, or a typo).
    """
    entry = supplier(kind, name)
    if entry is None or installed(entry.distribution):
        return None
    return (
        f"{kind} {name!r} comes with {entry.distribution} (not installed); from a checkout "
        f"of gent: {entry.install_command()}"
    )


def installed(distribution: str) -> bool:
    """Whether ``distribution`` is installed in this environment."""
    from importlib import metadata

    try:
        metadata.distribution(distribution)
    except metadata.PackageNotFoundError:
        return False
    return True
