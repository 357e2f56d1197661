"""A quick look for pluggy's markers, so that registering a plugin costs little.

pluggy looks at every name in ``dir(plugin)`` with :func:`inspect.getattr_static` (about 20
microseconds each): registering a module of 80 names, or a recorder object with 50, took
milliseconds, and every run with middleware registers the agent's plugins again in a manager
of its own (:mod:`gent_core._agent.hooks`). :func:`surely_unmarked` answers from the
dictionaries alone for the names that cannot be marked hooks — a value that is not a
function, or a function with no marker — and leaves every other name to pluggy, so which
names are hooks, and how each is bound, stays exactly pluggy's answer.
"""

from __future__ import annotations

import types
from typing import Any

__all__ = ["surely_unmarked"]

_HOOKABLE = (types.FunctionType, staticmethod, classmethod, types.MethodType)
"""The values pluggy takes a hook from (anything else it skips)."""

_ABSENT: Any = object()
_mro = type.__dict__["__mro__"].__get__  # the MRO getattr_static walks, not a metaclass's


def _own(obj: object) -> dict[str, Any] | None:
    try:
        found = object.__getattribute__(obj, "__dict__")
    except AttributeError:
        return None
    return found if isinstance(found, dict) else None


def _in_classes(klass: type, name: str) -> Any:
    for base in _mro(klass):
        value = base.__dict__.get(name, _ABSENT)
        if value is not _ABSENT:
            return value
    return _ABSENT


def _raw(obj: object, name: str) -> Any:
    """The value pluggy's lookup of ``name`` on ``obj`` finds, or ``_ABSENT`` when it may find
    another (a class as the plugin, a name its type defines, a value in a slot).
    """
    if isinstance(obj, type):
        return _ABSENT
    own = _own(obj)
    if isinstance(obj, types.ModuleType):
        if own is None or _in_classes(type(obj), name) is not _ABSENT:
            return _ABSENT
        return own.get(name, _ABSENT)
    if own is not None and name in own:
        return _ABSENT  # the instance's own value: pluggy's rules for it are its own
    value = _in_classes(type(obj), name)
    return _ABSENT if isinstance(value, types.MemberDescriptorType) else value


def surely_unmarked(obj: object, name: str, marker: str) -> bool:
    """Whether pluggy's lookup of ``name`` on ``obj`` surely finds no hook marked ``marker``
    (``gent_impl``, ``gent_spec``); ``False`` means: ask pluggy.
    """
    value = _raw(obj, name)
    if value is _ABSENT:
        return False
    if not isinstance(value, _HOOKABLE):
        return True
    if isinstance(value, types.FunctionType):
        return marker not in value.__dict__
    return False
