"""gent-xml: the ``xml`` text format (``<thinking>...</thinking>`` sections) for gent.

See :mod:`gent_xml.format` for the parsing, escaping and streaming rules. The names below
load on first use, so loading the plugin (``gent --help`` does) imports no format code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core import export_names, load_export

if TYPE_CHECKING:
    from gent_xml.format import MAX_TAG_LENGTH, XMLFormat
    from gent_xml.scanner import XMLScanner

__all__ = ["MAX_TAG_LENGTH", "XMLFormat", "XMLScanner"]
__version__ = "0.1.0"

_EXPORTS = {
    "MAX_TAG_LENGTH": "gent_xml.format",
    "XMLFormat": "gent_xml.format",
    "XMLScanner": "gent_xml.scanner",
}


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())
