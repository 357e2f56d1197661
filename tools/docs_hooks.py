"""MkDocs hooks of gent's documentation site (``hooks:`` in ``mkdocs.yml``).

Every plugin's README (``plugins/*/README.md``) is the single source of that plugin's page: at
build time each README becomes a page of the reference, ``reference/plugins/<distribution>.md``,
followed by the Python API of the plugin's package when it declares ``__all__``, and an
overview page lists every plugin with its entry point. The nav entry
``Plugins: reference/plugins/index.md`` is expanded into a section holding them all, so a new
plugin appears on the site without touching ``mkdocs.yml``.

Links in a README are written for GitHub (relative to the README); on the site they are
rewritten: to ``docs/`` pages, to the pages of other plugins, to the site's home for the
repository's README. A link to any other file of the repository (source code) has no page on
the site and becomes plain text.
"""

from __future__ import annotations

import ast
import logging
import posixpath
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files

__all__ = ["PluginPackage", "on_config", "on_files", "plugin_packages", "rewrite_links"]

ROOT = Path(__file__).resolve().parents[1]
PLUGINS_URI = "reference/plugins"
OVERVIEW_URI = f"{PLUGINS_URI}/index.md"
NAV_TITLE = "Plugins"

log = logging.getLogger("mkdocs.hooks.gent")

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_INLINE_LINK = re.compile(r"(!?\[(?:[^\[\]]|\[[^\]]*\])*\])\(([^()\s]+)(\s+\"[^\"]*\")?\)")
_REFERENCE_DEFINITION = re.compile(r"^(\s{0,3}\[[^\]]+\]:\s*)(\S+)(.*)$")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


@dataclass(frozen=True)
class PluginPackage:
    """One plugin distribution under ``plugins/`` that has a README."""

    folder: Path

    @property
    def distribution(self) -> str:
        """The distribution name, which is the folder's name (``gent-xml``)."""
        return self.folder.name

    @property
    def package(self) -> str:
        """The import package (``gent_xml``)."""
        return self.distribution.replace("-", "_")

    @property
    def page_uri(self) -> str:
        """Where the plugin's page is on the site."""
        return f"{PLUGINS_URI}/{self.distribution}.md"

    def readme(self) -> str:
        """The README's text."""
        return (self.folder / "README.md").read_text(encoding="utf-8")

    def entry_points(self) -> dict[str, str]:
        """The distribution's ``gent`` entry points, ``{plugin name: module}``."""
        if sys.version_info >= (3, 11):
            import tomllib
        else:  # Python 3.10: the docs extra installs tomli there
            import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

        pyproject = self.folder / "pyproject.toml"
        if not pyproject.is_file():
            return {}
        project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
        points = project.get("entry-points", {}).get("gent", {})
        return {str(name): str(module) for name, module in points.items()}

    def has_public_api(self) -> bool:
        """Whether the package's ``__init__.py`` declares ``__all__`` (its public API)."""
        init = self.folder / self.package / "__init__.py"
        if not init.is_file():
            return False
        tree = ast.parse(init.read_text(encoding="utf-8"))
        return any(
            isinstance(node, (ast.Assign, ast.AnnAssign))
            and any(
                isinstance(target, ast.Name) and target.id == "__all__"
                for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            )
            for node in tree.body
        )


def plugin_packages(root: Path = ROOT) -> list[PluginPackage]:
    """Every plugin folder with a README, in name order (``_template`` excluded)."""
    return [
        PluginPackage(folder)
        for folder in sorted((root / "plugins").iterdir())
        if not folder.name.startswith(("_", ".")) and (folder / "README.md").is_file()
    ]


# --------------------------------------------------------------------------- links


def _site_target(target: str, source_dir: str, page_uri: str, plugins: set[str]) -> str | None:
    """Where a README link points on the site, or ``None`` when it has no page there."""
    path, hash_mark, anchor = target.partition("#")
    resolved = posixpath.normpath(posixpath.join(source_dir, path))
    page_dir = posixpath.dirname(page_uri)
    if resolved == "README.md":
        site_path = "index.md"
    elif resolved.startswith("docs/"):
        site_path = resolved.removeprefix("docs/")
    else:
        parts = resolved.split("/")
        is_plugin = len(parts) >= 2 and parts[0] == "plugins" and parts[1] in plugins
        if not is_plugin or parts[2:] not in ([], ["README.md"]):
            return None
        site_path = f"{PLUGINS_URI}/{parts[1]}.md"
    return posixpath.relpath(site_path, page_dir) + hash_mark + anchor


def rewrite_links(markdown: str, source_dir: str, page_uri: str, plugins: set[str]) -> str:
    """Rewrite the relative links of a Markdown text written at ``source_dir`` (relative to
    the repository root) for a page at ``page_uri`` (relative to ``docs/``).

    Links with a scheme (``https:``) and in-page anchors stay as they are; links inside code
    blocks are not touched; a link to a file with no page on the site becomes its text.
    """

    def convert(target: str) -> str | None:
        if _SCHEME.match(target) or target.startswith(("#", "/")):
            return target
        return _site_target(target, source_dir, page_uri, plugins)

    def inline(match: re.Match[str]) -> str:
        text, target, title = match.group(1), match.group(2), match.group(3) or ""
        converted = convert(target)
        if converted is None:
            log.info("%s: link to %s has no page on the site; kept as text", page_uri, target)
            return text[2:-1] if text.startswith("!") else text[1:-1]
        return f"{text}({converted}{title})"

    lines = []
    fence: str | None = None
    for line in markdown.splitlines():
        opening = _FENCE.match(line)
        if fence is not None:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                fence = None
            lines.append(line)
            continue
        if opening:
            fence = opening.group(1)
            lines.append(line)
            continue
        definition = _REFERENCE_DEFINITION.match(line)
        if definition:
            converted = convert(definition.group(2))
            target = converted if converted is not None else definition.group(2)
            lines.append(definition.group(1) + target + definition.group(3))
            continue
        lines.append(_INLINE_LINK.sub(inline, line))
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- pages


def plugin_page(plugin: PluginPackage, plugins: set[str]) -> str:
    """A plugin's page: its README (links rewritten), then its Python API."""
    source_dir = plugin.folder.relative_to(ROOT).as_posix()
    text = rewrite_links(plugin.readme(), source_dir, plugin.page_uri, plugins).rstrip()
    text += (
        f"\n\n<small>This page is `plugins/{plugin.distribution}/README.md`, the plugin's "
        "README.</small>\n"
    )
    if plugin.has_public_api():
        text += (
            f"\n## Python API\n\n::: {plugin.package}\n"
            "    options:\n"
            "      show_root_heading: false\n"
            "      show_root_toc_entry: false\n"
            "      heading_level: 3\n"
        )
    return text


def _summary(plugin: PluginPackage, plugins: set[str]) -> str:
    """The README's first paragraph (after the title), on one line, links rewritten."""
    paragraphs = [p.strip() for p in plugin.readme().split("\n\n")]
    body = [p for p in paragraphs if p and not p.startswith(("#", "```", "~~~", "<"))]
    if not body:
        return ""
    text = rewrite_links(body[0], plugin.folder.relative_to(ROOT).as_posix(), OVERVIEW_URI, plugins)
    return " ".join(text.split()).replace("|", "\\|")


def overview_page(packages: list[PluginPackage]) -> str:
    """The plugins overview: every plugin, its entry points and what it supplies."""
    names = {plugin.distribution for plugin in packages}
    lines = [
        "# Plugins",
        "",
        "The plugins shipped in this repository. Each page is the plugin's own README "
        "(`plugins/<distribution>/README.md`), followed by its Python API. Every plugin is a "
        "separate distribution, found by gent through its entry point in the `gent` group "
        "(see [entry points](../entry-points.md)); `gent plugins` lists what is installed. A "
        "library that plugins depend on (gent-prompt) is a distribution here too, with no "
        "entry point.",
        "",
        "| distribution | entry point (`gent` group): name, module | what it is |",
        "| --- | --- | --- |",
    ]
    for plugin in packages:
        points = (
            "<br>".join(f"`{name}`<br>`{module}`" for name, module in plugin.entry_points().items())
            or "none: a library the plugins depend on"
        )
        link = f"[{plugin.distribution}]({plugin.distribution}.md)"
        lines.append(f"| {link} | {points} | {_summary(plugin, names)} |")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- mkdocs events


def _expand_plugins_nav(items: list[Any], entries: list[dict[str, str]]) -> bool:
    """Replace the ``Plugins: reference/plugins/index.md`` nav item by the plugins section."""
    for index, item in enumerate(items):
        if isinstance(item, dict):
            for title, value in item.items():
                if title == NAV_TITLE and value == OVERVIEW_URI:
                    items[index] = {NAV_TITLE: entries}
                    return True
                if isinstance(value, list) and _expand_plugins_nav(value, entries):
                    return True
    return False


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Put every plugin's page into the nav's Plugins section."""
    entries = [{"Overview": OVERVIEW_URI}]
    entries += [{p.distribution: p.page_uri} for p in plugin_packages()]
    if config.nav is not None and not _expand_plugins_nav(config.nav, entries):
        log.warning("mkdocs.yml: no nav item '%s: %s' to expand", NAV_TITLE, OVERVIEW_URI)
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the generated plugin pages to the site."""
    from mkdocs.structure.files import File

    packages = plugin_packages()
    names = {plugin.distribution for plugin in packages}
    files.append(File.generated(config, OVERVIEW_URI, content=overview_page(packages)))
    for plugin in packages:
        files.append(File.generated(config, plugin.page_uri, content=plugin_page(plugin, names)))
    return files
