"""``gent plugins``: list installed plugins, their status and the components they supply."""

from __future__ import annotations

import argparse

from gent_core._cli.helpformat import HelpFormatter
from gent_core._cli.output import Output
from gent_core._cli.table import aligned_table
from gent_core._plugins.manager import PluginInfo, build_plugin_manager
from gent_core._plugins.registry import KINDS, Registry
from gent_core.errors import GentError

__all__ = ["add_arguments", "render_table", "run"]

_EXAMPLES = """\
examples:
  gent plugins
  gent plugins --json                     # with each failed plugin's error
  GENT_DISABLE_PLUGINS=broken gent plugins
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


def _components(info: PluginInfo) -> str:
    parts = [
        f"{kind}s: {', '.join(info.components[kind])}"
        for kind in KINDS
        if info.components.get(kind)
    ]
    return "; ".join(parts) or "-"


def render_table(infos: list[PluginInfo]) -> str:
    """Render plugin infos as an aligned plain-text table."""
    header = ("PLUGIN", "DISTRIBUTION", "VERSION", "STATUS", "SUPPLIES")
    rows = [
        (
            info.name,
            info.distribution or "-",
            info.version or "-",
            info.status,
            _components(info) if info.status == "loaded" else (info.error or "").splitlines()[-1],
        )
        for info in infos
    ]
    return aligned_table(header, rows)


def run(args: argparse.Namespace) -> int:
    """List plugins; exit 1 in strict mode when a plugin fails, else 0."""
    output = Output()  # plugin errors may quote anything: control characters are shown
    try:
        manager = build_plugin_manager()
        Registry.from_plugin_manager(manager)
    except GentError as error:
        output.failure("gent plugins", error)
        return 1
    infos = sorted(manager.plugin_infos.values(), key=lambda info: info.name)
    if args.json:
        output.json([info.as_dict() for info in infos])
    else:
        output.line(render_table(infos))
        failed = [info.name for info in infos if info.status == "failed"]
        if failed:
            output.line(
                f"\n{len(failed)} plugin(s) failed to load: {', '.join(failed)}. "
                "Run 'gent plugins --json' for the errors.",
                err=True,
            )
    return 0
