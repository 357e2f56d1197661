"""The hypothesis settings of the conformance kit's properties: the profile in use.

The kit runs as many examples as the hypothesis profile in use when the kit is imported
(``settings.default``: 100 unless a profile says otherwise). Load a profile in your
``conftest.py`` (``settings.load_profile("ci")``) or with pytest's
``--hypothesis-profile=NAME`` to run the kit faster or more thoroughly; its deadline is off
and the health checks that one kit method shared by every plugin's subclass trips are
suppressed.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

__all__ = ["kit_settings", "profile_examples"]

_SUPPRESSED = [
    HealthCheck.too_slow,
    HealthCheck.data_too_large,
    # One kit method runs for every subclass (each plugin's component): by design.
    HealthCheck.differing_executors,
]


def kit_settings(share: float = 1.0) -> settings:
    """Settings for a kit property: ``share`` of the profile's examples (at least one).

    Args:
        share: The part of the profile's ``max_examples`` a property runs (``0.25`` for one
            whose examples are expensive).
    """
    profile = settings.default
    base = profile.max_examples if profile is not None else settings().max_examples
    examples = max(1, round(base * share))
    return settings(max_examples=examples, deadline=None, suppress_health_check=_SUPPRESSED)


def profile_examples(examples: int) -> settings:
    """Settings for your own property that runs ``examples`` examples under hypothesis's
    default profile (100 examples), and as many in proportion under the profile in use: all
    of them in CI, a quarter under a quick loop's profile of 25 (at least one).

    ``@profile_examples(150)`` in place of ``@settings(max_examples=150)`` keeps a
    property's depth in the full run and lets ``--hypothesis-profile`` shorten it in a quick
    loop. The deadline is off and the health checks are the kit's.
    """
    return kit_settings(examples / settings.get_profile("default").max_examples)
