"""Output schemas whose patterns the MCP SDK would match with Python's ``re``.

The SDK checks a tool's structured result against the ``outputSchema`` the server listed,
with ``jsonschema``, which applies ``pattern`` and ``patternProperties`` with :mod:`re` on the
event loop: a server's pattern that backtracks catastrophically would stop gent for hours,
holding the GIL, deaf to Ctrl-C. gent does not rely on that check (the structured content is
the call's raw output, whatever it holds), so :func:`drop_pattern_checks` empties, in place,
every listed output schema holding a pattern (the SDK keeps a reference to the listed
schema): it then accepts any structured content. Schemas without patterns keep their check.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import mcp_types

__all__ = ["drop_pattern_checks", "has_pattern"]

logger = logging.getLogger("gent.mcp")


def has_pattern(schema: Any) -> bool:
    """Whether a JSON Schema holds a ``pattern`` or ``patternProperties`` anywhere."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str) or isinstance(
                node.get("patternProperties"), dict
            ):
                return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def drop_pattern_checks(tools: Iterable[mcp_types.Tool], server: str) -> None:
    """Empty the output schema of each of ``tools`` that holds a pattern (see the module
    docstring).
    """
    for tool in tools:
        schema = tool.output_schema
        if isinstance(schema, dict) and has_pattern(schema):
            schema.clear()
            logger.debug(
                "MCP server %r: the output schema of %r holds patterns; its results are not "
                "checked against it",
                server,
                tool.name,
            )
