"""Local JSON Schema references (``{"$ref": "#/$defs/Item"}``), for everything that walks a
schema: argument validation, example values, grammars, YAML conversion, config errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["MAX_REF_HOPS", "follow_refs", "is_local_ref", "resolve_pointer"]

MAX_REF_HOPS = 10
"""Longest ``$ref`` chain followed (a longer one is taken to be a cycle)."""


def is_local_ref(ref: object) -> bool:
    """Whether ``ref`` is a pointer into the same document (``"#/..."`` or ``"#"``)."""
    return isinstance(ref, str) and ref.startswith("#")


def resolve_pointer(root: Any, ref: str) -> Any:
    """Return the value the local JSON pointer ``ref`` (``"#/$defs/Item"``) names in ``root``.

    ``~1`` and ``~0`` are unescaped; list items are addressed by index.

    Raises:
        LookupError: When the pointer names nothing in ``root``.
    """
    node = root
    for token in filter(None, ref[1:].split("/")):
        key = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            raise LookupError(ref)
    return node


def follow_refs(schema: Any, root: Any, max_hops: int = MAX_REF_HOPS) -> Mapping[str, Any] | None:
    """Return ``schema`` with its chain of local ``$ref`` pointers followed.

    A schema whose ``$ref`` is not local is returned as it is.

    Returns:
        The schema, or ``None`` when it is not a mapping, a pointer names nothing or no
        schema, or the chain is longer than ``max_hops``.
    """
    for _ in range(max_hops):
        if not isinstance(schema, Mapping):
            return None
        ref = schema.get("$ref")
        if not is_local_ref(ref):
            return schema
        assert isinstance(ref, str)  # is_local_ref checked it
        try:
            schema = resolve_pointer(root, ref)
        except LookupError:
            return None
    return None
