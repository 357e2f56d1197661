"""gent-eval's gent plugin: the ``gent eval`` command, its hooks, and its own check kinds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from gent_core import Command, hookimpl

if TYPE_CHECKING:
    from gent_core import GentPluginManager
    from gent_eval.checks.base import Check

__all__ = ["gent_add_hookspecs", "gent_eval_checks", "gent_register_commands"]


@hookimpl
def gent_add_hookspecs(pluginmanager: GentPluginManager) -> None:
    """Add ``gent_eval_checks`` and ``gent_eval_suite_sources`` (:mod:`gent_eval.hookspecs`)."""
    from gent_eval import hookspecs

    pluginmanager.add_hookspecs(hookspecs)


@hookimpl
def gent_register_commands() -> Mapping[str, Command]:
    """``gent eval``."""
    return {
        "eval": Command(
            "gent_eval.cli", "measure how well agent configurations solve a suite of tasks"
        )
    }


@hookimpl
def gent_eval_checks() -> Sequence[type[Check]]:
    """gent-eval's own check kinds (contains, number, tool_called, file, python...)."""
    from gent_eval.checks import BUILTIN_CHECKS

    return BUILTIN_CHECKS
