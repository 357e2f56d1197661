"""The xml format against the TextFormat contract, with the conformance kit."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from gent_xml import XMLFormat

from gent_core.testing import FormatConformance


class TestXMLFormat(FormatConformance):
    """Round trips, streaming, linear time (with the XML-specific inputs below), documented
    errors only, the grammar and describe()."""

    adversarial_inputs: ClassVar[Mapping[str, str | tuple[str, str]]] = {
        "a<a<a": "<a",
        "would-be tags without >": "<thinking ",
        "attributes never closed": "<action x=\"1\" y='2' ",
        "unterminated CDATA": ("<answer><![CDATA[", "]] ]"),
        "</ inside a section": ("<thinking>", "</thinkin"),
        "< and ] soup": "<<]]/>",
    }

    def make_format(self) -> XMLFormat:
        return XMLFormat()
