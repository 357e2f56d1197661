"""BFCL function names as gent tool names, and back.

BFCL names functions after Python paths (``math.factorial``,
``requests.get``); gent tool names allow letters, digits, ``_`` and ``-`` only
(:data:`gent_core.tools._function.TOOL_NAME_PATTERN`), as OpenAI-style function calling does.
BFCL's own handlers replace ``.`` with ``_`` for such providers, which cannot be undone
(``get_weather`` and ``get.weather`` meet). gent writes ``.`` as ``-`` instead:
``math.factorial`` <-> ``math-factorial``. No BFCL name holds a ``-`` (the agreement test
checks every name of every supported category), so the mapping is exact both ways; a name
that holds one cannot be mapped and is refused rather than guessed.

A later change may let gent tool names hold dots; these two functions are then the only
place to change.
"""

from __future__ import annotations

from gent_core.toolkit import check_tool_name

__all__ = ["from_gent_name", "to_gent_name"]


def to_gent_name(name: str) -> str:
    """The gent tool name of the BFCL function ``name`` (``.`` written as ``-``).

    Raises:
        ValueError: When ``name`` holds a ``-`` (the mapping could not be undone) or does not
            become a valid gent tool name (1-64 letters, digits, ``_``, ``-``, starting with a
            letter or ``_``).
    """
    if "-" in name:
        raise ValueError(
            f"the BFCL function name {name!r} holds '-', which gent uses for '.'; "
            "it cannot be mapped to a gent tool name and back"
        )
    mapped = name.replace(".", "-")
    try:
        return check_tool_name(mapped)
    except ValueError as error:
        raise ValueError(
            f"the BFCL function name {name!r} makes no gent tool name: {error}"
        ) from None


def from_gent_name(gent_name: str) -> str:
    """The BFCL function name of the gent tool name ``gent_name`` (``-`` read as ``.``);
    the inverse of :func:`to_gent_name`.
    """
    return gent_name.replace("-", ".")
