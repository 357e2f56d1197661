"""The built-in ``core`` plugin of gent-core, declared as its ``core`` entry point.

It goes through the same hooks as any third-party plugin and supplies the ``text`` and
``json`` terminations, the ``scripted`` model (replays outputs given in the config: for
dry runs of a config file and for tests) and the built-in commands of the ``gent`` command
line (as tox's internal plugins supply its own). Each command is named by its module, so
nothing of it is imported until it runs or its help is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from gent_core._plugins.commands import Command
from gent_core.hookspecs import hookimpl

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


COMMANDS: Mapping[str, Command] = MappingProxyType(
    {
        "run": Command("gent_core._cli.run", "run an agent on a task (a config file is optional)"),
        "chat": Command(
            "gent_core._cli.chat", "talk with an agent, turn after turn (tools in every turn)"
        ),
        "describe": Command(
            "gent_core._cli.describe", "print an agent's exact system prompt and grammar"
        ),
        "parse": Command(
            "gent_core._cli.parse", "split a model output into sections (and tool calls)"
        ),
        "plugins": Command("gent_core._cli.plugins", "list installed plugins and what they supply"),
        "install": Command(
            "gent_core._cli.install", "install plugins into the environment gent runs in"
        ),
        "uninstall": Command(
            "gent_core._cli.uninstall", "uninstall plugins from gent's environment"
        ),
        "logs": Command(
            "gent_core._cli.history", "list, search and show the logged runs (the history)"
        ),
        "tools": Command("gent_core._cli.tools", "list installed tools, or show one tool's schema"),
        "call": Command("gent_core._cli.call", "run one tool from the shell, without a model"),
        "completion": Command(
            "gent_core._cli.completion", "print the shell completion script (bash, zsh, fish)"
        ),
        "help": Command("gent_core._cli.help", "show the help of gent or of one of its commands"),
    }
)
"""The built-in commands, in the order ``gent --help`` lists them."""


@hookimpl
def gent_register_commands() -> Mapping[str, Command]:
    """Supply the built-in commands (:data:`COMMANDS`)."""
    return COMMANDS
