"""Lazy module attributes (PEP 562), so importing a package stays cheap.

A package lists its public names with the modules defining them and delegates its module
``__getattr__`` here::

    _EXPORTS = {"tool": "gent_core.tools._function"}

    def __getattr__(name: str) -> Any:
        return load_export(__name__, _EXPORTS, globals(), name)
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

__all__ = ["export_names", "load_export"]


def load_export(
    package: str, exports: Mapping[str, str], namespace: dict[str, Any], name: str
) -> Any:
    """Import ``name`` from the module ``exports`` maps it to, caching it in ``namespace``.

    Raises:
        AttributeError: When ``name`` is not exported by ``package``.
    """
    module_name = exports.get(name)
    if module_name is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module_name), name)
    namespace[name] = value
    return value


def export_names(exports: Mapping[str, str], namespace: Mapping[str, Any]) -> list[str]:
    """The names a lazy package shows in ``dir()``: what is loaded plus what is exported."""
    return sorted(set(namespace) | set(exports))
