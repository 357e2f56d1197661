"""gent-yaml: the ``yaml`` tool chain (tool calls written as YAML).

``YAMLToolChain`` loads on first use (PEP 562), so importing the plugin module to register it
stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gent_yaml.chain import YAMLToolChain

__all__ = ["YAMLToolChain"]


def __getattr__(name: str) -> Any:
    """Import ``YAMLToolChain`` on first use."""
    if name == "YAMLToolChain":
        from gent_yaml.chain import YAMLToolChain

        return YAMLToolChain
    raise AttributeError(f"module 'gent_yaml' has no attribute {name!r}")
