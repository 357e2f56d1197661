"""``gent plugins``: list installed plugins, their status and the components they supply."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeGuard

from gent_core._cli.helpformat import HelpFormatter
from gent_core._cli.output import Output
from gent_core._cli.table import aligned_table
from gent_core._plugins.kinds import KINDS

if TYPE_CHECKING:
    from gent_core._plugins.manager import PluginInfo

__all__ = ["CACHE_TOPIC", "add_arguments", "render_table", "run"]

CACHE_TOPIC = "plugins"
"""The discovery cache's topic for the listing (each plugin's ``as_dict()``)."""

_FIELDS: dict[str, type | tuple[type, ...]] = {
    "name": str,
    "module": str,
    "distribution": (str, type(None)),
    "version": (str, type(None)),
    "status": str,
    "error": (str, type(None)),
    "components": dict,
}

_EXAMPLES = """\
examples:
  gent plugins
  gent plugins --json                     # with each failed plugin's error
  GENT_DISABLE_PLUGINS=broken gent plugins
  gent plugins --available                # gent's own plugins, installed or not
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``gent plugins``."""
    parser.epilog = _EXAMPLES
    parser.formatter_class = HelpFormatter
    parser.add_argument(
        "--json",
        action="store_true",
        help="print a JSON list (distribution, version, entry-point name, components, "
        "status, error) instead of a table",
    )
    parser.add_argument(
        "--available",
        action="store_true",
        help="list gent's own plugin distributions, installed or not: what each supplies "
        "and how to install it",
    )


def _components(components: Mapping[str, list[str]]) -> str:
    parts = [f"{kind}s: {', '.join(components[kind])}" for kind in KINDS if components.get(kind)]
    return "; ".join(parts) or "-"


def _table(listing: list[dict[str, Any]]) -> str:
    header = ("PLUGIN", "DISTRIBUTION", "VERSION", "STATUS", "SUPPLIES")
    rows = [
        (
            info["name"],
            info["distribution"] or "-",
            info["version"] or "-",
            info["status"],
            _components(info["components"])
            if info["status"] == "loaded"
            else (info["error"] or "").splitlines()[-1],
        )
        for info in listing
    ]
    return aligned_table(header, rows)


def render_table(infos: list[PluginInfo]) -> str:
    """Render plugin infos as an aligned plain-text table."""
    return _table([info.as_dict() for info in infos])


def _valid(listing: object) -> TypeGuard[list[dict[str, Any]]]:
    """Whether a cached listing has the shape of ``PluginInfo.as_dict()`` items (a corrupt
    cache file is not shown).
    """
    return isinstance(listing, list) and all(
        isinstance(info, dict)
        and set(info) == set(_FIELDS)
        and all(isinstance(info[key], kind) for key, kind in _FIELDS.items())
        and all(
            isinstance(kind, str)
            and isinstance(names, list)
            and all(isinstance(name, str) for name in names)
            for kind, names in info["components"].items()
        )
        for info in listing
    )


def _declared(listing: list[dict[str, Any]], declared: Mapping[str, frozenset[str]]) -> bool:
    """Whether every plugin of a cached listing is one the installed entry points declare,
    with the module they declare (a cache may only save work, never add a plugin).
    """
    return all(info["module"] in declared.get(info["name"], ()) for info in listing)


def _listing() -> list[dict[str, Any]]:
    """Every plugin's ``as_dict()``, sorted by name: from the discovery cache when it holds
    the answer for the installed code as it is now, else found by loading every plugin and
    calling its registration hooks (and remembered when no plugin failed).

    Raises:
        GentError: In strict mode, when a plugin fails.
    """
    from gent_core._plugins import cache

    remembered = cache.recall(CACHE_TOPIC)
    if _valid(remembered) and _declared(remembered, cache.declared_plugins()):
        return remembered
    from gent_core._plugins.manager import build_plugin_manager
    from gent_core._plugins.registry import Registry

    since = cache.started()
    manager = build_plugin_manager()
    Registry.from_plugin_manager(manager)
    infos = sorted(manager.plugin_infos.values(), key=lambda info: info.name)
    listing = [info.as_dict() for info in infos]
    if all(info.status != "failed" for info in infos):
        cache.remember(CACHE_TOPIC, listing, since)
    return listing


def _available(output: Output, as_json: bool) -> int:
    """``gent plugins --available``: the index of gent's own distributions."""
    from gent_core._plugins.available import available_plugins, installed

    index = available_plugins()
    if as_json:
        output.json(
            [{**entry.as_dict(), "installed": installed(entry.distribution)} for entry in index]
        )
        return 0
    rows = [
        (
            entry.distribution,
            "yes" if installed(entry.distribution) else "no",
            _components({kind: list(names) for kind, names in entry.supplies.items()}),
        )
        for entry in index
    ]
    output.line(aligned_table(("DISTRIBUTION", "INSTALLED", "SUPPLIES"), rows))
    output.line(
        "\nNone is on PyPI yet: install one from a checkout of gent with "
        "'gent install ./plugins/DISTRIBUTION'."
    )
    return 0


def run(args: argparse.Namespace) -> int:
    """List plugins; exit 1 in strict mode when a plugin fails, else 0."""
    from gent_core.errors import GentError

    output = Output()  # plugin errors may quote anything: control characters are shown
    if args.available:
        return _available(output, args.json)
    try:
        listing = _listing()
    except GentError as error:
        output.failure("gent plugins", error)
        return 1
    if args.json:
        output.json(listing)
    else:
        output.line(_table(listing))
        failed = [info["name"] for info in listing if info["status"] == "failed"]
        if failed:
            output.line(
                f"\n{len(failed)} plugin(s) failed to load: {', '.join(failed)}. "
                "Run 'gent plugins --json' for the errors.",
                err=True,
            )
    return 0
