"""gent-pythonic: the ``pythonic`` tool chain (tool calls written as Python calls with
literal arguments, read with :mod:`ast`, never evaluated).

``PythonicToolChain`` and ``PythonCallError`` load on first use (PEP 562), so importing the
plugin module to register it stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gent_pythonic.chain import PythonicToolChain
    from gent_pythonic.errors import PythonCallError

__all__ = ["PythonCallError", "PythonicToolChain"]


def __getattr__(name: str) -> Any:
    """Import ``PythonicToolChain`` or ``PythonCallError`` on first use."""
    if name == "PythonicToolChain":
        from gent_pythonic.chain import PythonicToolChain

        return PythonicToolChain
    if name == "PythonCallError":
        from gent_pythonic.errors import PythonCallError

        return PythonCallError
    raise AttributeError(f"module 'gent_pythonic' has no attribute {name!r}")
