"""Hypothesis settings of the property tests: small by default (CI), larger on request.

``GENT_PROPERTIES=thorough .venv/bin/pytest tests/properties`` runs 10x the examples; under
the quick loop's hypothesis profile (``--hypothesis-profile=gent-fast``, conftest.py) they run
a quarter of the ``ci`` examples (``quick``). The profiles are applied per test
(``@settings(PROPERTIES)``), so loading this module changes no other test's settings.
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
settings.register_profile("gent-properties-quick", _COMMON, max_examples=10)
settings.register_profile("gent-properties-ci", _COMMON, max_examples=40)
settings.register_profile("gent-properties-thorough", _COMMON, max_examples=400)

_QUICK_LOOP = "gent-fast"
"""The hypothesis profile of the quick loop (registered in the repository's conftest.py)."""


def _default_profile() -> str:
    try:
        quick = settings.get_profile(_QUICK_LOOP)
    except Exception:  # noqa: BLE001 - not registered: this module runs outside the repository
        return "ci"
    in_use = settings.default
    return "quick" if in_use is not None and in_use.max_examples == quick.max_examples else "ci"


PROFILE = os.environ.get("GENT_PROPERTIES") or _default_profile()
"""``quick`` (under the quick loop's hypothesis profile), ``ci`` (the default) or
``thorough``."""

PROPERTIES = settings.get_profile(f"gent-properties-{PROFILE}")
"""Settings for every property test."""

_SCALE = {"quick": 0.25, "ci": 1.0, "thorough": 10.0}


def examples(ci: int) -> settings:
    """The property settings with ``ci`` examples: a quarter of them (at least one) in the
    quick profile, 10x as many in the thorough one."""
    return settings(PROPERTIES, max_examples=max(1, round(ci * _SCALE[PROFILE])))


FEWER = examples(10)
"""For properties whose examples are expensive (every cut of an output, whole agent runs)."""
