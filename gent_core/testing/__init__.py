"""The testing kit for gent and its plugins.

Installed with gent-core and registered as a pytest plugin (``pytest11`` entry point), so the
fixtures in :mod:`gent_core.testing.pytest_plugin` are available in any test suite:

``gent_plugins``
    A :class:`PluginSandbox`: an isolated plugin manager where tests register plugin objects
    without installing them.

Helpers usable anywhere: :class:`ScriptedModel` (a model that replays given outputs) and
:func:`stream_parse` (feed a format's incremental parser chunk by chunk).
"""

from gent_core.testing.helpers import PluginSandbox, stream_parse
from gent_core.testing.scripted import ScriptedModel

__all__ = ["PluginSandbox", "ScriptedModel", "stream_parse"]
