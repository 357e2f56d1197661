"""gent-json: the ``json`` tool chain (tool calls written as JSON).

``JSONToolChain`` loads on first use (PEP 562), so importing the plugin module to register it
stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gent_json.chain import JSONToolChain

__all__ = ["JSONToolChain"]


def __getattr__(name: str) -> Any:
    """Import ``JSONToolChain`` on first use."""
    if name == "JSONToolChain":
        from gent_json.chain import JSONToolChain

        return JSONToolChain
    raise AttributeError(f"module 'gent_json' has no attribute {name!r}")
