"""gent-bfcl's gent plugin: the ``bfcl:`` suite source of ``gent eval``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from gent_core import hookimpl

if TYPE_CHECKING:
    from gent_eval import SourceEvaluation, SourceOptions, SuiteLoader

__all__ = ["gent_eval_suite_sources", "load"]


@hookimpl
def gent_eval_suite_sources() -> Mapping[str, SuiteLoader]:
    """``gent eval bfcl:CATEGORY[,CATEGORY...][@FOLDER]`` (:mod:`gent_bfcl.evalsource`)."""
    return {"bfcl": load}


def load(selector: str, options: SourceOptions) -> SourceEvaluation:
    """:func:`gent_bfcl.evalsource.load`, imported when a BFCL evaluation is asked for (not
    when the sources are listed).
    """
    from gent_bfcl.evalsource import load as load_bfcl

    return load_bfcl(selector, options)
