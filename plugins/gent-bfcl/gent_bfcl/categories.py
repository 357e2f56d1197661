"""The BFCL categories gent-bfcl supports, and how each one is judged.

BFCL (v4) names its single-turn, AST-checked categories as below; the ``live_*`` ones hold
user-contributed functions and questions. Each category is judged in one of four ways,
decided by BFCL's checker from the category's *name* (``"parallel" in name`` first, then
``"multiple" in name``), which :func:`check_kind` reproduces:

* ``simple``: exactly one call, of the one function offered;
* ``multiple``: exactly one call, of the right one among several functions;
* ``parallel``: several calls, in any order (``parallel`` and ``parallel_multiple``);
* ``irrelevance``: no call at all (no offered function fits the question).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

__all__ = [
    "CATEGORIES",
    "CheckKind",
    "check_kind",
    "parse_categories",
]

CheckKind = Literal["simple", "multiple", "parallel", "irrelevance"]

CATEGORIES: tuple[str, ...] = (
    "simple_python",
    "multiple",
    "parallel",
    "parallel_multiple",
    "irrelevance",
    "live_simple",
    "live_multiple",
    "live_parallel",
    "live_parallel_multiple",
    "live_irrelevance",
)
"""Every supported category, in BFCL's order (non-live first)."""


def check_kind(category: str) -> CheckKind:
    """How ``category`` is judged (see the module docstring).

    Raises:
        ValueError: For a category gent-bfcl does not support, listing the supported ones.
    """
    if category not in CATEGORIES:
        raise ValueError(f"unknown BFCL category {category!r}; supported: {', '.join(CATEGORIES)}")
    if "irrelevance" in category:
        return "irrelevance"
    if "parallel" in category:
        return "parallel"
    if "multiple" in category:
        return "multiple"
    return "simple"


def parse_categories(spec: str | Iterable[str]) -> list[str]:
    """The categories named by ``spec``: a comma-separated string (``"simple_python,multiple"``,
    as in ``bfcl:simple_python,multiple``) or an iterable of names, in the order given,
    each once.

    Raises:
        ValueError: When nothing is named, or a name is not a supported category (every
            unknown name and the supported ones are listed).
    """
    names = spec.split(",") if isinstance(spec, str) else list(spec)
    chosen: list[str] = []
    for raw in names:
        name = raw.strip()
        if name and name not in chosen:
            chosen.append(name)
    if not chosen:
        raise ValueError(f"no BFCL category named; supported: {', '.join(CATEGORIES)}")
    unknown = [name for name in chosen if name not in CATEGORIES]
    if unknown:
        raise ValueError(
            f"unknown BFCL categor{'y' if len(unknown) == 1 else 'ies'} "
            f"{', '.join(repr(name) for name in unknown)}; supported: {', '.join(CATEGORIES)}"
        )
    return chosen
