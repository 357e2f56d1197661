"""gent-bfcl's gent plugin: the ``bfcl:`` suite source of ``gent eval``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from gent_core import hookimpl

if TYPE_CHECKING:
    from gent_eval import SuiteLoader

__all__ = ["gent_eval_suite_sources"]


@hookimpl
def gent_eval_suite_sources() -> Mapping[str, SuiteLoader]:
    """``gent eval bfcl:CATEGORY[,CATEGORY...][@FOLDER]`` (:mod:`gent_bfcl.evalsource`)."""
    from gent_bfcl.evalsource import load

    return {"bfcl": load}
