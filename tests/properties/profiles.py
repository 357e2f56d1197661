"""Hypothesis settings of the property tests: small by default (CI), larger on request.

``GENT_PROPERTIES=thorough .venv/bin/pytest tests/properties`` runs 10x the examples.
The profiles are applied per test (``@settings(PROPERTIES)``), so loading this module
changes no other test's settings.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_COMMON = settings(
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
settings.register_profile("gent-properties-ci", _COMMON, max_examples=40)
settings.register_profile("gent-properties-thorough", _COMMON, max_examples=400)

PROFILE = os.environ.get("GENT_PROPERTIES", "ci")
"""``ci`` (the default) or ``thorough``."""

PROPERTIES = settings.get_profile(f"gent-properties-{PROFILE}")
"""Settings for every property test."""


def examples(ci: int) -> settings:
    """The property settings with ``ci`` examples, or 10x as many in the thorough profile."""
    return settings(PROPERTIES, max_examples=ci if PROFILE == "ci" else 10 * ci)


FEWER = examples(10)
"""For properties whose examples are expensive (every cut of an output, whole agent runs)."""
