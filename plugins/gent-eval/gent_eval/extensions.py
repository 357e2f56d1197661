"""What other packages add to ``gent eval`` through its hooks (:mod:`gent_eval.hookspecs`):
check kinds and suite sources, collected from the installed plugins.

Each plugin's implementation is called on its own: one that raises, or returns something
that is not a check class or a loader, is left out with a warning naming the plugin, and
the rest still work (as the core's registry treats a broken plugin). gent-eval's own check
kinds are always there, even when its plugin is not loaded (``GENT_PLUGINS`` lists others).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gent_core import GentPluginManager
    from gent_eval.checks.base import Check
    from gent_eval.sources import SuiteLoader

__all__ = ["SOURCE_PREFIX", "check_kinds", "suite_sources"]

logger = logging.getLogger("gent.eval")

SOURCE_PREFIX = re.compile(r"[a-z][a-z0-9_-]+")
"""What a suite source's prefix may look like (two characters or more: never a drive)."""


def _manager(manager: GentPluginManager | None) -> GentPluginManager | None:
    if manager is not None:
        return manager
    from gent_core import GentError, get_plugin_manager

    try:
        return get_plugin_manager()
    except GentError as error:  # strict mode and a broken plugin: the built-ins still work
        logger.warning("gent eval: installed plugins are unavailable: %s", error)
        return None


def _supplied(manager: GentPluginManager | None, hook: str) -> Iterator[tuple[str, Any]]:
    """``(plugin, what its implementation of hook returned)`` for each implementation that
    did not raise.
    """
    caller = getattr(manager.hook, hook, None) if manager is not None else None
    if caller is None:
        return
    for impl in caller.get_hookimpls():  # in registration order
        try:
            supplied = impl.function()
        except Exception as error:  # noqa: BLE001 - a broken plugin is reported, not fatal
            logger.warning(
                "gent eval: plugin %s failed in %s: %s: %s",
                impl.plugin_name,
                hook,
                type(error).__name__,
                error,
            )
            continue
        yield impl.plugin_name, supplied


def check_kinds(manager: GentPluginManager | None = None) -> dict[str, type[Check]]:
    """Every check kind by the key that names it in a suite: gent-eval's own, then those
    of the plugins implementing ``gent_eval_checks`` (``manager``: the process's plugin
    manager by default). A kind taken already is not replaced (warned).
    """
    from gent_eval.checks import BUILTIN_CHECKS
    from gent_eval.checks.base import Check

    kinds: dict[str, type[Check]] = {kind.kind: kind for kind in BUILTIN_CHECKS}
    for plugin, supplied in _supplied(_manager(manager), "gent_eval_checks"):
        for item in supplied if isinstance(supplied, list | tuple) else [supplied]:
            kind = getattr(item, "kind", None) if isinstance(item, type) else None
            if not (isinstance(item, type) and issubclass(item, Check)) or not isinstance(
                kind, str
            ):
                logger.warning(
                    "gent eval: plugin %s supplies %r as a check kind; a check kind is a "
                    "subclass of gent_eval.Check with a 'kind' name; ignored",
                    plugin,
                    item,
                )
            elif kinds.get(kind, item) is not item:
                logger.warning(
                    "gent eval: plugin %s supplies the check kind %r, which %s supplies "
                    "already; ignored",
                    plugin,
                    kind,
                    kinds[kind].__module__,
                )
            else:
                kinds[kind] = item
    return kinds


def suite_sources(manager: GentPluginManager | None = None) -> dict[str, SuiteLoader]:
    """Every suite source by its prefix (``bfcl``), from the plugins implementing
    ``gent_eval_suite_sources``. A prefix supplied by two plugins is left out (warned).
    """
    found: dict[str, list[tuple[str, Callable[..., Any]]]] = {}
    for plugin, supplied in _supplied(_manager(manager), "gent_eval_suite_sources"):
        items = supplied.items() if isinstance(supplied, dict) else ()
        if not isinstance(supplied, dict):
            logger.warning(
                "gent eval: plugin %s: gent_eval_suite_sources returned %s, not a mapping of "
                "prefix to loader; ignored",
                plugin,
                type(supplied).__name__,
            )
        for prefix, loader in items:
            if not isinstance(prefix, str) or not SOURCE_PREFIX.fullmatch(prefix):
                logger.warning(
                    "gent eval: plugin %s: suite source prefix %r is not lowercase letters, "
                    "digits, '-' and '_' (two or more); ignored",
                    plugin,
                    prefix,
                )
            elif not callable(loader):
                logger.warning(
                    "gent eval: plugin %s: the loader of suite source %r is not callable; ignored",
                    plugin,
                    prefix,
                )
            else:
                found.setdefault(prefix, []).append((plugin, loader))
    sources: dict[str, SuiteLoader] = {}
    for prefix, providers in found.items():
        if len(providers) > 1:
            logger.warning(
                "gent eval: the suite source %r is supplied by several plugins (%s); none is used",
                prefix,
                ", ".join(plugin for plugin, _ in providers),
            )
        else:
            sources[prefix] = providers[0][1]
    return sources
