"""Fuzz target: the reader of ``-o/--option KEY=VALUE`` (``gent run``, ``gent describe``) and
``--matrix KEY=V1,V2`` (``gent eval``) values (:func:`gent_core._config.overrides.parse_setting`
and :func:`~gent_core._config.overrides.parse_assignment`).

The choice byte picks the flag. A value is read as YAML (text that is not YAML stays text).
The readers document two errors, which the commands report as usage errors: ``ValueError``
(no ``=``, a key that is not dotted, an empty ``--matrix`` value) and
:class:`~gent_core.errors.InputBoundsError` (a value beyond gent's bounds). Whatever the
text, nothing else is raised — no ``RecursionError``, no alias bomb expanded — and every value
read is within gent's bounds.
"""

from __future__ import annotations

from fuzz.targets.contract import decode, outcome
from gent_core._config.overrides import parse_assignment, parse_setting
from gent_core._serialize import check_value
from gent_core.errors import InputBoundsError


def test_one_input(data: bytes) -> None:
    """Check the contract on one input."""
    choice, text = decode(data)
    if choice % 2 == 0:
        setting = outcome(lambda: parse_setting(text), ValueError, InputBoundsError)
        if isinstance(setting, tuple):
            check_value(setting[1], name=setting[0])
    else:
        axis = outcome(lambda: parse_assignment(text), ValueError, InputBoundsError)
        if isinstance(axis, tuple):
            key, values = axis
            assert isinstance(values, list) and values, f"{key}: no values"
            for value in values:
                check_value(value, name=key)
