"""Helpers for plugin authors' tests."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence

from gent_core._plugins.manager import GentPluginManager, PluginInfo, PluginSelection
from gent_core._plugins.registry import Registry
from gent_core.formats import TextFormat
from gent_core.sections import ParseResult, Section, SectionEvent

__all__ = ["PluginSandbox", "stream_parse"]


class PluginSandbox:
    """An isolated plugin manager: no installed plugin is loaded unless asked.

    Args:
        selection: Allow/deny lists and strictness (nothing blocked, not strict by default).

    Example::

        def test_my_format(gent_plugins):
            gent_plugins.register(my_plugin_module)
            fmt = gent_plugins.registry().create("format", "mine")
    """

    def __init__(self, selection: PluginSelection | None = None) -> None:
        self.manager = GentPluginManager(selection)

    def register(self, plugin: object, name: str | None = None) -> PluginInfo:
        """Register a plugin object (a module, class or instance with hook implementations)."""
        plugin_name = name or getattr(plugin, "__name__", None) or type(plugin).__name__
        return self.manager.add_plugin(plugin, plugin_name)

    def register_core(self) -> PluginInfo:
        """Register gent-core's own plugin (``core``: the ``text`` and ``json`` terminations,
        the ``scripted`` model), as installing gent-core does.
        """
        from gent_core import _builtin

        return self.register(_builtin, "core")

    def load_installed(self) -> None:
        """Also load the installed plugins (entry points)."""
        self.manager.load_entry_points()

    def registry(self) -> Registry:
        """Build a registry from the plugins registered so far."""
        return Registry.from_plugin_manager(self.manager)

    @contextlib.contextmanager
    def as_process_manager(self) -> Iterator[GentPluginManager]:
        """Make this sandbox the process-wide plugin manager inside a ``with`` block, so code
        that calls :func:`~gent_core._plugins.manager.get_plugin_manager` (the ``gent``
        command, :meth:`Agent.from_config <gent_core._agent.Agent.from_config>`) sees exactly
        the plugins registered here.

        Example::

            with gent_plugins.as_process_manager():
                assert main(["mycommand"]) == 0
        """
        from gent_core._plugins import manager as manager_module

        previous = manager_module._default_manager
        manager_module._default_manager = self.manager
        try:
            yield self.manager
        finally:
            manager_module._default_manager = previous


def stream_parse(
    text_format: TextFormat,
    sections: Sequence[Section | str],
    chunks: Iterable[str],
) -> tuple[list[SectionEvent], ParseResult]:
    """Feed ``chunks`` to a fresh incremental parser; return every event and the result."""
    parser = text_format.incremental_parser(sections)
    events: list[SectionEvent] = []
    for chunk in chunks:
        events.extend(parser.feed(chunk))
    events.extend(parser.close())
    return events, parser.result()


def run_cli(arguments: Sequence[str]) -> int:
    """Run the ``gent`` command in this process and return its exit code.

    ``run_cli(["run", "agent.yaml", "task", "-q"])`` does what ``gent run agent.yaml task -q``
    does, with the plugins installed in this environment; read what it printed with pytest's
    ``capsys``.
    """
    from gent_core._cli.main import main

    return main(list(arguments))
