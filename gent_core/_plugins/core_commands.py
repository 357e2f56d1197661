"""The built-in commands of the ``gent`` command line, which gent-core's own plugin
(:mod:`gent_core._builtin`) supplies through ``gent_register_commands``.

Their own module, so that the command line lists them without importing the plugin (and
with it pluggy): each is named by its module, and nothing of it is imported until it runs
or its help is shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from gent_core._plugins.commands import Command

__all__ = ["COMMANDS"]

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
        "tools": Command("gent_core._cli.tools", "list installed tools, or show one tool's schema"),
        "call": Command("gent_core._cli.call", "run one tool from the shell, without a model"),
        "completion": Command(
            "gent_core._cli.completion", "print the shell completion script (bash, zsh, fish)"
        ),
        "help": Command("gent_core._cli.help", "show the help of gent or of one of its commands"),
    }
)
"""The built-in commands, in the order ``gent --help`` lists them."""
