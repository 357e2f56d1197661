"""Basic tools for gent: ``calculator`` and ``current_time``.

The tools are found through the ``gent`` entry point ``basic``. They can also be imported
(``from gent_tools_basic import calculator``); the import is lazy so that loading the plugin
module stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core import load_export

__version__ = "0.1.0"

_EXPORTS = {
    "calculator": "gent_tools_basic.calculator_tool",
    "current_time": "gent_tools_basic.clock",
}

if TYPE_CHECKING:
    from gent_tools_basic.calculator_tool import calculator
    from gent_tools_basic.clock import current_time

__all__ = ["__version__", "calculator", "current_time"]


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)
