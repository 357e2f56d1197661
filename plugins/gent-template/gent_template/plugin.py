"""Registration hook of gent-template. Keep this module light: no heavy imports here."""

from __future__ import annotations

from collections.abc import Mapping

from gent_core import Command
from gent_core.hookspecs import hookimpl


@hookimpl
def gent_register_commands() -> Mapping[str, Command]:
    """Supply ``gent new-plugin``."""
    return {
        "new-plugin": Command("gent_template.command", "start a plugin package from the template")
    }
