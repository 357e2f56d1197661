"""Generate ``gent_core/_plugins/available.json``: gent's own plugin distributions and what
each one supplies, the index behind ``gent plugins --available`` and the install hint of an
unknown component.

Every package under ``plugins/`` must be installed (``python3 dev.py setup`` does it): the
components come from loading each plugin, the summary from its installed metadata. Run
``python tools/gen_plugin_index.py`` after adding a plugin or a component;
``tests/packaging/test_plugin_index.py`` fails when the committed index is out of date.
"""

from __future__ import annotations

import json
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
INDEX = ROOT / "gent_core" / "_plugins" / "available.json"


def plugin_folders() -> dict[str, str]:
    """``{distribution: folder}`` of every plugin under ``plugins/`` (``_`` folders left
    out, and libraries such as gent-prompt, which declare no ``gent`` entry point), the
    distribution named by its folder."""
    return {
        path.parent.name: f"plugins/{path.parent.name}"
        for path in sorted((ROOT / "plugins").glob("*/pyproject.toml"))
        if not path.parent.name.startswith("_")
        and "[project.entry-points.gent]" in path.read_text("utf-8")
    }


def build_index() -> dict[str, Any]:
    """The index, from the installed plugins of ``plugins/``.

    Raises:
        SystemExit: A package of ``plugins/`` is not installed or its plugin failed to load.
    """
    from gent_core._plugins.manager import build_plugin_manager
    from gent_core._plugins.registry import Registry

    manager = build_plugin_manager()
    Registry.from_plugin_manager(manager)
    folders = plugin_folders()
    entries: list[dict[str, Any]] = []
    for info in sorted(manager.plugin_infos.values(), key=lambda info: info.name):
        if info.distribution not in folders:
            continue
        if info.status != "loaded":
            sys.exit(f"plugin {info.name!r} of {info.distribution} is {info.status}: {info.error}")
        entries.append(
            {
                "distribution": info.distribution,
                "plugin": info.name,
                "summary": metadata.metadata(info.distribution)["Summary"] or "",
                "folder": folders[info.distribution],
                "supplies": {kind: sorted(names) for kind, names in info.components.items()},
            }
        )
    missing = sorted(set(folders) - {entry["distribution"] for entry in entries})
    if missing:
        sys.exit(f"not installed (run python3 dev.py setup): {', '.join(missing)}")
    entries.sort(key=lambda entry: entry["distribution"])
    return {"generated_by": "tools/gen_plugin_index.py", "distributions": entries}


def render(index: dict[str, Any]) -> str:
    """The index file's text."""
    return json.dumps(index, indent=1, ensure_ascii=False) + "\n"


def main() -> None:
    INDEX.write_text(render(build_index()), encoding="utf-8")
    print(f"wrote {INDEX.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
