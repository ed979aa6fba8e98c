"""Hypothesis profiles: ``ci`` runs the example counts written in each test, ``dev``
(the default outside CI) a tenth of them for a quick local run.

``HYPOTHESIS_PROFILE=ci make test`` runs the full counts locally.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
settings.load_profile(PROFILE)


def examples(count: int) -> int:
    """The number of examples a property test runs under the active profile."""
    return count if PROFILE == "ci" else max(10, count // 10)
