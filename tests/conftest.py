"""Test configuration: the Hypothesis profiles.

Profiles (select with ``pytest --hypothesis-profile=NAME``):

* ``ci`` (the default): derandomised, no example database, 100 examples per
  property and no deadline, so a run is reproducible on any machine.
* ``dev``: random seeds and the local example database, 100 examples.
* ``long``: 100,000 examples per property, for fuzzing campaigns (hours).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    max_examples=100,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "long",
    max_examples=100_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def cairo() -> None:
    """Skip the test when cairosvg or the system cairo library it loads is missing.

    Only the third-party import is guarded: pacru's own rendering code runs
    outside it, so a broken pacru module fails the test instead of skipping it.
    """
    try:
        import cairosvg  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: F401
    except (ImportError, OSError) as err:  # OSError: cairosvg without the system cairo library
        pytest.skip(f"rendering needs cairosvg and the cairo library (test extra): {err}")
