"""New plugin packages, rendered from the plugin template (what ``gent new-plugin`` runs).

The template is one folder, kept in the repository as ``plugins/gent-template/_template/``
and shipped inside the gent-template wheel as ``gent_template/template/`` (the build copies the
folder; it is never edited twice). It holds the package skeleton (``pyproject.toml``, ``README.md``,
``gent_template/``) and, under ``kinds/<kind>/``, one working example per component kind:
``plugin.py`` (the component and its registration hook), ``test_plugin.py`` (its tests, with
the conformance kit where there is one) and ``README.md`` (what the package supplies).

Rendering copies the skeleton and one kind's files, replacing the placeholder names:

=================  =====================  ==========================================
placeholder        replaced by            for ``gent new-plugin my-tool --kind tool``
=================  =====================  ==========================================
``gent-template``  the distribution       ``gent-my-tool``
``gent_template``  the import package     ``gent_my_tool``
``Template``       the class-name stem    ``MyTool``
``template``       the plugin name        ``my_tool`` (entry point, component name)
``TEMPLATE-KIND``  the kind               ``tool``
=================  =====================  ==========================================
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass
from pathlib import Path

from gent_core.errors import GentError
from gent_core.workspace import probe_path

__all__ = [
    "KINDS",
    "MAX_NAME_LENGTH",
    "RESERVED_NAMES",
    "PluginNames",
    "check_name_is_free",
    "plugin_names",
    "render_plugin",
    "template_directory",
]

KINDS = ("tool", "format", "toolchain", "termination", "model")
"""The component kinds a new plugin can start from."""

MAX_NAME_LENGTH = 50
"""The longest plugin name (without ``gent-``): file and package names stay far from file
system limits."""

RESERVED_NAMES = {
    "core": "gent itself (distribution gent-core, package gent_core)",
    "template": "the plugin template's placeholder",
}
"""Names gent itself uses, and what uses them."""

_NAME = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")
_ACCEPTED = (
    "use lowercase letters and digits, words separated by '-' or '_', starting with a "
    f"letter, at most {MAX_NAME_LENGTH} characters (e.g. 'weather' or 'my-tools')"
)
_KIND_README = "TEMPLATE-KIND-README"


@dataclass(frozen=True)
class PluginNames:
    """The names of a new plugin, derived from the one given.

    Attributes:
        plugin: The plugin and component name (``my_tool``): the entry point's name.
        distribution: The distribution (``gent-my-tool``), also the package's folder.
        package: The import package (``gent_my_tool``).
        class_stem: The start of class names (``MyTool``: ``MyToolFormat``).
    """

    plugin: str
    distribution: str
    package: str
    class_stem: str

    def substitute(self, text: str, kind: str) -> str:
        """Replace the template's placeholder names in ``text``."""
        for placeholder, value in (
            ("TEMPLATE-KIND", kind),
            ("gent-template", self.distribution),
            ("gent_template", self.package),
            ("Template", self.class_stem),
            ("template", self.plugin),
        ):
            text = text.replace(placeholder, value)
        return text


def plugin_names(name: str) -> PluginNames:
    """Derive the names of a plugin called ``name`` (``my-tool``, ``my_tool`` or ``gent-my-tool``).

    Raises:
        ValueError: Saying what a name may look like.
    """
    base = name.strip()
    for prefix in ("gent-", "gent_"):
        if base.startswith(prefix):
            base = base[len(prefix) :]
    if len(base) > MAX_NAME_LENGTH:
        raise ValueError(f"a plugin name of {len(base)} characters is too long: {_ACCEPTED}")
    if not _NAME.fullmatch(base):
        raise ValueError(f"{name!r} is not a plugin name: {_ACCEPTED}")
    plugin = base.replace("-", "_")
    if keyword.iskeyword(plugin):
        raise ValueError(
            f"{name!r} cannot be a plugin name: {plugin!r} is a Python keyword; choose another"
        )
    if plugin in RESERVED_NAMES:
        raise ValueError(
            f"{name!r} cannot be a plugin name: {plugin!r} is reserved for "
            f"{RESERVED_NAMES[plugin]}; choose another"
        )
    words = re.split(r"[-_]", base)
    return PluginNames(
        plugin=plugin,
        distribution=f"gent-{base.replace('_', '-')}",
        package=f"gent_{plugin}",
        class_stem="".join(word.capitalize() for word in words),
    )


def check_name_is_free(names: PluginNames) -> None:
    """Refuse names an installed package already holds: once installed, the new package would
    replace it (its distribution, its import package, or its plugin's entry point).

    Raises:
        ValueError: Naming what holds the name.
    """
    import importlib.util
    from importlib import metadata

    from gent_core import installed_plugins

    taken = None
    for plugin in installed_plugins():
        if plugin.name == names.plugin:
            owner = f" (distribution {plugin.distribution})" if plugin.distribution else ""
            taken = f"the installed plugin {plugin.name!r}{owner} has that name"
            break
    if taken is None:
        try:
            metadata.distribution(names.distribution)
        except metadata.PackageNotFoundError:
            pass
        else:
            taken = f"the distribution {names.distribution} is installed"
    if taken is None:
        try:
            found = importlib.util.find_spec(names.package) is not None
        except (ImportError, ValueError):
            found = False
        if found:
            taken = f"the package {names.package} can be imported already"
    if taken is not None:
        raise ValueError(
            f"{names.plugin!r} is taken: {taken}, and the new package would replace it once "
            "installed; choose another name (gent plugins lists the installed ones)"
        )


def template_directory() -> Path:
    """The plugin template: the copy inside the installed gent-template, or the repository's
    (an editable install).

    Raises:
        GentError: When neither exists (a broken installation).
    """
    here = Path(__file__).resolve().parent
    for candidate in (here / "template", here.parent / "_template"):
        if (candidate / "kinds").is_dir():
            return candidate
    raise GentError(
        "the plugin template is missing from this installation of gent-template",
        hint="Reinstall gent-template (its wheel ships gent_template/template).",
    )


def _planned_files(template: Path, names: PluginNames, kind: str) -> dict[Path, str]:
    """Output path (relative to the package folder) -> rendered text."""

    def read(relative: str) -> str:
        return (template / relative).read_text(encoding="utf-8")

    readme = read("README.md").replace(_KIND_README, read(f"kinds/{kind}/README.md").strip())
    package = Path(names.package)
    files = {
        Path("pyproject.toml"): read("pyproject.toml"),
        Path("README.md"): readme,
        package / "__init__.py": read("gent_template/__init__.py"),
        package / "py.typed": read("gent_template/py.typed"),
        package / "plugin.py": read(f"kinds/{kind}/plugin.py"),
        Path("tests") / f"test_{names.plugin}_plugin.py": read(f"kinds/{kind}/test_plugin.py"),
    }
    return {path: names.substitute(text, kind) for path, text in files.items()}


def render_plugin(name: str, kind: str, directory: Path | str = ".") -> Path:
    """Write a complete plugin package for ``name`` starting from the ``kind`` example.

    Args:
        name: The plugin's name (see :func:`plugin_names`).
        kind: One of :data:`KINDS`.
        directory: Where the package folder (``gent-<name>``) is created.

    Returns:
        The package folder.

    Raises:
        ValueError: A bad name or kind, or a name an installed package holds
            (:func:`check_name_is_free`).
        FileExistsError: The package folder exists already.
        GentError: The template is missing.
        OSError: The files cannot be written.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; choose one of: {', '.join(KINDS)}")
    names = plugin_names(name)
    check_name_is_free(names)
    target = Path(directory) / names.distribution
    if probe_path(target).exists:
        raise FileExistsError(f"{target} exists already; choose another --dir or name")
    files = _planned_files(template_directory(), names, kind)
    for relative, text in files.items():
        path = target / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return target
