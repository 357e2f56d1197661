"""The built-in ``core`` plugin of gent-core, declared as its ``core`` entry point.

It goes through the same hooks as any third-party plugin and supplies the ``text`` and
``json`` terminations, the ``scripted`` model (replays outputs given in the config: for
dry runs of a config file and for tests) and the built-in commands of the ``gent`` command
line (as tox's internal plugins supply its own). Each command is named by its module, so
nothing of it is imported until it runs or its help is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from gent_core._plugins.commands import Command
from gent_core._plugins.core_commands import COMMANDS
from gent_core.hookspecs import hookimpl

__all__ = [
    "COMMANDS",
    "gent_register_commands",
    "gent_register_models",
    "gent_register_terminations",
]

if TYPE_CHECKING:  # for the hooks' signatures only: the command line needs neither
    from gent_core.model import Model
    from gent_core.termination import Termination


@hookimpl
def gent_register_terminations() -> Mapping[str, Callable[..., Termination]]:
    """Supply the ``text`` and ``json`` terminations."""
    from gent_core._terminations.text import TextTermination
    from gent_core._terminations.typed import JSONTermination

    return {"text": TextTermination, "json": JSONTermination}


@hookimpl
def gent_register_models() -> Mapping[str, Callable[..., Model]]:
    """Supply the ``scripted`` model."""
    from gent_core.testing._scripted import ScriptedModel

    return {"scripted": ScriptedModel}


@hookimpl
def gent_register_commands() -> Mapping[str, Command]:
    """Supply the built-in commands (:data:`COMMANDS`)."""
    return COMMANDS
