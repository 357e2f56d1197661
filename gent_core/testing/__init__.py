"""The testing kit for gent and its plugins.

Installed with gent-core and registered as a pytest plugin (``pytest11`` entry point), so the
fixtures in :mod:`gent_core.testing.pytest_plugin` are available in any test suite:

``gent_plugins``
    A :class:`PluginSandbox`: an isolated plugin manager where tests register plugin objects
    without installing them.

Helpers usable anywhere: :class:`ScriptedModel` (a model that replays given outputs),
:func:`stream_parse` (feed a format's incremental parser chunk by chunk) and
:func:`run_tool` / :func:`run_tool_sync` (validate arguments and call one tool).
"""

from gent_core.testing.helpers import PluginSandbox, stream_parse
from gent_core.testing.scripted import ScriptedModel
from gent_core.testing.tools import run_tool, run_tool_sync

__all__ = ["PluginSandbox", "ScriptedModel", "run_tool", "run_tool_sync", "stream_parse"]
