"""A strict JSON reader for tests: refuses ``NaN``/``Infinity`` and anything else RFC 8259 does
not allow, as a strict parser in another language would."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["strict_loads"]


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def strict_loads(text: str) -> Any:
    """Parse ``text`` as strict JSON; raise ``ValueError`` for anything else.

    Lone surrogates written as ``\\uXXXX`` escapes are allowed (the JSON grammar allows them);
    raw ones are not, since no UTF-8 stream can carry them.
    """
    text.encode("utf-8")  # raw lone surrogates cannot be written to a UTF-8 stream
    return json.loads(text, parse_constant=_refuse_constant)
