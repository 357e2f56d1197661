"""gent-xml: the ``xml`` text format (``<thinking>...</thinking>`` sections) for gent.

See :mod:`gent_xml.format` for the parsing, escaping and streaming rules.
"""

from __future__ import annotations

from gent_xml.format import MAX_TAG_LENGTH, XMLFormat
from gent_xml.scanner import XMLScanner

__all__ = ["MAX_TAG_LENGTH", "XMLFormat", "XMLScanner"]
__version__ = "0.1.0"
