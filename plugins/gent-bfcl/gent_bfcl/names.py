"""BFCL function names as gent tool names, and back: the same names.

BFCL names functions after Python paths (``math.factorial``, ``requests.get``). gent tool
names may hold dots (:func:`gent_core.tools.check_tool_name`), and every shipped
format and tool chain writes and reads them as they are, so the model sees BFCL's name and
writes it back: no mapping. (BFCL's own handlers replace ``.`` with ``_`` for providers whose
function names cannot hold dots, which cannot be undone.) The agreement test checks that every
name of every supported category is a valid gent tool name.

These two functions stay the one place where the names are checked and, should a format ever
need it, mapped.

Function-calling APIs are stricter: OpenAI's ``tools`` take names of 1-64 letters, digits,
``_`` and ``-`` (:data:`API_NAME`), so native function calling (:mod:`gent_bfcl.native`) sends
``geometry.circumference`` as ``geometry_circumference``. :class:`APINames` maps one task's
names both ways: a name the API accepts is sent as it is, any other has each character the API
refuses written as ``_`` (cut to 64 characters), and a name already taken gets a suffix
(``_2``, ``_3``...), so no two functions of a task share an API name and every API name maps
back to the one function it stands for.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from gent_core.tools import check_tool_name

__all__ = ["API_NAME", "APINames", "from_gent_name", "to_gent_name"]

API_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A function name OpenAI's ``tools`` parameter accepts (``^[a-zA-Z0-9_-]{1,64}$``)."""

_REFUSED = re.compile(r"[^A-Za-z0-9_-]")
_API_NAME_LENGTH = 64


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


class APINames:
    """One task's function names as a function-calling API takes them, and back.

    Args:
        names: The task's BFCL function names (repeats are mapped once).
    """

    def __init__(self, names: Iterable[str]) -> None:
        self._to_api: dict[str, str] = {}
        self._from_api: dict[str, str] = {}
        unique = list(dict.fromkeys(names))
        for name in unique:  # names the API accepts keep themselves, before any other
            if API_NAME.fullmatch(name):
                self._bind(name, name)
        for name in unique:
            if name not in self._to_api:
                self._bind(name, self._free(_REFUSED.sub("_", name)[:_API_NAME_LENGTH] or "_"))

    def _free(self, base: str) -> str:
        """``base``, or ``base`` cut to fit a suffix ``_N`` that makes it unused."""
        candidate, number = base, 1
        while candidate in self._from_api:
            number += 1
            suffix = f"_{number}"
            candidate = base[: _API_NAME_LENGTH - len(suffix)] + suffix
        return candidate

    def _bind(self, name: str, api_name: str) -> None:
        self._to_api[name] = api_name
        self._from_api[api_name] = name

    def to_api(self, name: str) -> str:
        """The API name of the task's function ``name``.

        Raises:
            KeyError: When ``name`` is not one of the task's functions.
        """
        return self._to_api[name]

    def from_api(self, api_name: str) -> str:
        """The BFCL name of ``api_name``; a name the task's functions were not sent as (a
        model naming a function that was not offered) is returned as it is, for the checker
        to judge.
        """
        return self._from_api.get(api_name, api_name)
