"""BFCL function names as gent tool names, and back: the same names.

BFCL names functions after Python paths (``math.factorial``, ``requests.get``). gent tool
names may hold dots (:data:`gent_core.tools._function.TOOL_NAME_PATTERN`), and every shipped
format and tool chain writes and reads them as they are, so the model sees BFCL's name and
writes it back: no mapping. (BFCL's own handlers replace ``.`` with ``_`` for providers whose
function names cannot hold dots, which cannot be undone.) The agreement test checks that every
name of every supported category is a valid gent tool name.

These two functions stay the one place where the names are checked and, should a format ever
need it, mapped.
"""

from __future__ import annotations

from gent_core.toolkit import check_tool_name

__all__ = ["from_gent_name", "to_gent_name"]


def to_gent_name(name: str) -> str:
    """The gent tool name of the BFCL function ``name``: the name itself.

    Raises:
        ValueError: When ``name`` is not a valid gent tool name (1-64 letters, digits, ``_``,
            ``-`` and ``.``, starting with a letter or ``_``, and after each dot).
    """
    try:
        return check_tool_name(name)
    except ValueError as error:
        raise ValueError(
            f"the BFCL function name {name!r} makes no gent tool name: {error}"
        ) from None


def from_gent_name(gent_name: str) -> str:
    """The BFCL function name of the gent tool name ``gent_name``: the name itself (the
    inverse of :func:`to_gent_name`).
    """
    return gent_name
