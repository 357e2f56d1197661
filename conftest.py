"""Settings shared by every test folder of the repository (``tests`` and each plugin's
``tests``): the hypothesis profiles, and Ctrl-C for the processes the tests interrupt.

No test may depend on the machine's speed, and hypothesis's defaults do: a 200 ms deadline per
example and the ``too_slow`` / ``data_too_large`` health checks, which time example generation
and fail a property on a loaded machine although nothing is wrong. ``gent`` is hypothesis's
default profile without them, loaded here for every test (a test's own ``@settings`` still
chooses its number of examples).

``gent-fast`` is ``gent`` with a quarter of the default examples (25 instead of 100) in every
property that follows the profile in use: those without their own ``max_examples``, those
with ``@profile_examples(n)`` (n under the default, a quarter of n here) and the conformance
kit's (``gent_core.testing``). ``python3 dev.py test --fast`` and the other
Pythons' runs of ``python3 dev.py test`` (tox) choose it with ``--hypothesis-profile=gent-fast``;
the main run of ``python3 dev.py test`` keeps ``gent``.
"""

from __future__ import annotations

import contextlib
import functools
import re
import signal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

PROFILE = "gent"
"""The profile every test runs under unless ``--hypothesis-profile`` names another."""

FAST_PROFILE = "gent-fast"
"""The name to give ``pytest --hypothesis-profile`` for the quick loop."""

settings.register_profile(
    PROFILE,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(FAST_PROFILE, settings.get_profile(PROFILE), max_examples=25)
settings.load_profile(PROFILE)


def pytest_configure(config: pytest.Config) -> None:
    """Give the test run Python's Ctrl-C handler back when it started with SIGINT ignored.

    A shell without job control (a script, ``python -m pytest ... &``) starts a background
    command with SIGINT ignored, and every process started from it inherits that: the ``gent``
    commands that tests interrupt with SIGINT (standing for a person's Ctrl-C in a terminal)
    then rightly keep ignoring it, as gent does for any signal ignored when it started, and
    exit 0 as if nothing came (``gent_core/_cli/signals.py``). With the handler back, the run
    and its children take Ctrl-C as they do when started in a terminal. (A SIGHUP ignored by
    ``nohup`` stays ignored: that one is the caller's choice.)
    """
    del config
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        with contextlib.suppress(ValueError):  # only the main thread may set a handler
            signal.signal(signal.SIGINT, signal.default_int_handler)


MODEL_WORDS = re.compile(
    r"llamacpp|LlamaCpp|llama_cpp|llama_server|instruct_server|bundled.model|local.model",
    re.IGNORECASE,
)
"""Words of a test module that runs a real model (in-process, ``gent run`` on the bundled
model, or a llama.cpp server)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Refuse a ``slow`` test without the ``model`` marker in a module that runs a real model:
    ``dev.py test`` runs the other slow tests two at a time, where a model would share the
    cores with another test (pyproject.toml's markers).
    """
    unmarked = [
        item.nodeid
        for item in items
        if item.get_closest_marker("slow") is not None
        and item.get_closest_marker("model") is None
        and MODEL_WORDS.search(_module_text(item.path))
    ]
    if unmarked:
        raise pytest.UsageError(
            f"slow tests in a module that runs a real model need @pytest.mark.model too "
            f"(or move them to a module of their own): {', '.join(unmarked)}"
        )


@functools.cache
def _module_text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")
