"""One fuzz target per parser; each module has ``test_one_input(data: bytes)``.

:data:`TARGETS` names them all, in the order ``dev.py fuzz`` runs them.
"""

from __future__ import annotations

TARGETS = (
    "xml_oneshot",
    "xml_stream",
    "markdown_oneshot",
    "markdown_stream",
    "json_chain",
    "yaml_chain",
    "natural_chain",
    "pythonic_chain",
    "natural_reader",
    "convert_input",
    "call_arguments",
    "override_values",
)
"""Target names: module ``fuzz.targets.<name>``, seed corpus ``fuzz/corpus/<name>/``."""
