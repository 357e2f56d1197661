"""The middleware shorthand of an agent config: ``natural: true`` for ``middleware: [natural]``.

A top-level key that is not an :class:`~gent_core._config.models.AgentConfig` field but is the
name of installed middleware switches that middleware on::

    natural: true                         # middleware: [natural]
    natural: {pretty_print_json: false}   # middleware: [{name: natural, pretty_print_json: false}]
    natural: false                        # nothing

The rewrite happens before validation, and every key path of the shorthand is mapped to its
place in ``middleware`` so errors still point at the line the user wrote. Installed middleware
names are only asked for when the config has a key the model does not know, so loading a
config normally loads no plugin.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from gent_core._config.yamldoc import Document, KeyPath, Mark

__all__ = [
    "Expanded",
    "MiddlewareNames",
    "expand_middleware_shorthand",
    "installed_middleware",
]

MiddlewareNames = Callable[[], Collection[str]]
"""Returns the names of the installed middleware (asked at most once, only when needed)."""


def installed_middleware() -> Collection[str]:
    """The middleware names supplied by the process-wide plugin manager's plugins."""
    from gent_core._plugins.manager import get_plugin_manager
    from gent_core._plugins.registry import Registry
    from gent_core.errors import GentError

    try:
        registry = Registry.from_plugin_manager(get_plugin_manager())
    except GentError:  # strict mode and a broken plugin: no shorthand; build reports it
        return ()
    return {entry.name for entry in registry.entries("middleware")}


@dataclass
class Expanded:
    """A document with its middleware shorthand rewritten.

    Attributes:
        data: The data to validate.
        marks: Where each key path of ``data`` was written.
        aliases: Rewritten key paths -> the key paths the user wrote (for messages).
        problems: ``(key path as written, message)`` for shorthand keys that are wrong.
    """

    data: Any
    marks: dict[KeyPath, Mark]
    aliases: dict[KeyPath, KeyPath] = field(default_factory=dict)
    problems: list[tuple[KeyPath, str]] = field(default_factory=list)


def expand_middleware_shorthand(
    document: Document, fields: Collection[str], names: MiddlewareNames
) -> Expanded:
    """Rewrite shorthand middleware keys of ``document`` into its ``middleware`` list.

    Args:
        document: The composed YAML document.
        fields: The keys the configuration model knows.
        names: Returns the installed middleware names.

    Returns:
        The rewritten document. Keys that are neither fields nor middleware (nor close to a
        middleware name) are left for validation to report.
    """
    data = document.data
    expanded = Expanded(data, dict(document.marks))
    if not isinstance(data, dict):
        return expanded
    unknown = [key for key in data if isinstance(key, str) and key not in fields]
    if not unknown:
        return expanded
    installed = sorted(set(names()))
    if not installed:
        return expanded
    data = expanded.data = dict(data)
    listed = data.get("middleware")
    middleware: list[Any] = list(listed) if isinstance(listed, list) else []
    for key in unknown:
        value = data[key]
        if key not in installed:
            close = difflib.get_close_matches(key, installed, n=1, cutoff=0.75)
            if close:
                del data[key]
                expanded.problems.append(
                    (
                        (key,),
                        f"unknown key {key!r} (did you mean the middleware {close[0]!r}?); "
                        f"installed middleware: {', '.join(installed)}",
                    )
                )
            continue
        del data[key]
        if value is False or value is None:
            continue
        if value is not True and not (isinstance(value, Mapping) and "name" not in value):
            expanded.problems.append(
                (
                    (key,),
                    f"the middleware {key!r} is switched on with 'true' or a mapping of its "
                    f"options (without 'name'), got {type(value).__name__}",
                )
            )
            continue
        index = len(middleware)
        middleware.append(key if value is True else {"name": key, **value})
        _move_marks(expanded, (key,), ("middleware", index))
    data["middleware"] = middleware
    return expanded


def _move_marks(expanded: Expanded, old: KeyPath, new: KeyPath) -> None:
    marks = expanded.marks
    for path in [path for path in marks if path[: len(old)] == old]:
        moved: KeyPath = new + path[len(old) :]
        marks[moved] = marks[path]
    marks.setdefault(("middleware",), marks[old])
    name: KeyPath = (*new, "name")
    marks[name] = marks[old]
    expanded.aliases[new] = old
