"""The testing kit for gent and its plugins.

Installed with gent-core and registered as a pytest plugin (``pytest11`` entry point), so the
fixtures in :mod:`gent_core.testing._pytest_plugin` are available in any test suite:

``gent_plugins``
    A :class:`PluginSandbox`: an isolated plugin manager where tests register plugin objects
    without installing them.

The plugin also points ``GENT_HOME`` (gent's data directory: gent-history's run history)
at a temporary directory for the test session, so tests that run ``gent`` never write to the
user's own history; a test that needs its own sets ``GENT_HOME`` with ``monkeypatch``. It
also sets ``GENT_NO_CACHE=1``: the command line's plugin discovery cache is off, so a test
sees the plugins it registers or installs, never an answer remembered from earlier runs.

Helpers usable anywhere: :class:`ScriptedModel` (a model that replays given outputs),
:func:`stream_parse` (feed a format's incremental parser chunk by chunk) and
:func:`run_tool` / :func:`run_tool_sync` (validate arguments and call one tool) and
:func:`run_cli` (the ``gent`` command, in this process), and :func:`load_transcript` (a run's
JSONL transcript read back, to assert what a run recorded).

Test doubles of the contracts (:mod:`gent_core.testing._doubles`): :class:`PlainFormat`, a
format that writes ``[name]`` sections (to format observations and prompts) and reads
nothing, and :class:`StubChain`, a tool chain of bare tool names, one per line.

The conformance kit (:mod:`gent_core.testing._conformance`): :class:`FormatConformance`,
:class:`ChainConformance` and :class:`TerminationConformance`, pytest base classes a
plugin's tests subclass to check its component against the contract (with the tools they
call, :data:`KIT_TOOLS`), and
:func:`assert_linear` / :func:`count_steps` to check that work grows linearly by counting
interpreter steps, never by reading a clock, and :func:`profile_examples` (a property's number
of examples, scaled with the hypothesis profile in use) (the kit needs ``hypothesis``, loaded on
first use).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core._lazy import export_names, load_export
from gent_core.testing._helpers import PluginSandbox, run_cli, stream_parse
from gent_core.testing._scripted import ScriptedModel
from gent_core.testing._tools import run_tool, run_tool_sync

_EXPORTS: dict[str, str] = {
    "ChainConformance": "gent_core.testing._conformance",
    "FormatConformance": "gent_core.testing._conformance",
    "KIT_TOOLS": "gent_core.testing._conformance",
    "PlainFormat": "gent_core.testing._doubles",
    "StubChain": "gent_core.testing._doubles",
    "TerminationConformance": "gent_core.testing._conformance",
    "assert_linear": "gent_core.testing._conformance",
    "count_steps": "gent_core.testing._conformance",
    "profile_examples": "gent_core.testing._conformance",
    "load_transcript": "gent_core._transcript.lines",
}

if TYPE_CHECKING:
    from gent_core._transcript.lines import load_transcript
    from gent_core.testing._conformance import (
        KIT_TOOLS,
        ChainConformance,
        FormatConformance,
        TerminationConformance,
        assert_linear,
        count_steps,
        profile_examples,
    )
    from gent_core.testing._doubles import PlainFormat, StubChain

__all__ = [
    "KIT_TOOLS",
    "ChainConformance",
    "FormatConformance",
    "PlainFormat",
    "PluginSandbox",
    "ScriptedModel",
    "StubChain",
    "TerminationConformance",
    "load_transcript",
    "assert_linear",
    "count_steps",
    "profile_examples",
    "run_cli",
    "run_tool",
    "run_tool_sync",
    "stream_parse",
]


def __getattr__(name: str) -> Any:
    """Import the conformance kit on first use (PEP 562): it needs hypothesis."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())
