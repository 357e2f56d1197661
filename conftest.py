"""Settings shared by every test folder of the repository (``tests`` and each plugin's
``tests``): the hypothesis profile of the quick loop.

``gent-fast`` runs a quarter of hypothesis's default examples (25 instead of 100) in every
property that follows the profile in use (those without their own ``max_examples``, and the
conformance kit's, ``gent_core.testing``). ``python3 dev.py test --fast`` and the other
Pythons' runs of ``python3 dev.py test`` (tox) choose it with ``--hypothesis-profile=gent-fast``;
the main run of ``python3 dev.py test`` keeps hypothesis's default profile.
"""

from __future__ import annotations

from hypothesis import settings

FAST_PROFILE = "gent-fast"
"""The name to give ``pytest --hypothesis-profile``."""

settings.register_profile(FAST_PROFILE, max_examples=25)
