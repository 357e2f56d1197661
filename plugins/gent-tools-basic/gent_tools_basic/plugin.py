"""The ``basic`` plugin: registers the ``calculator`` and ``current_time`` tools."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from gent_core.hookspecs import hookimpl

if TYPE_CHECKING:  # annotations only: loading the plugin stays light
    from gent_core.tools.base import Tool


@hookimpl
def gent_register_tools() -> Sequence[Tool]:
    """Supply the ``calculator`` and ``current_time`` tools."""
    from gent_tools_basic.calculator_tool import calculator
    from gent_tools_basic.clock import current_time

    return [calculator, current_time]
